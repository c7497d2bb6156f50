import { describe, expect, it } from 'vitest';
import {
  CACHE_TTL_MS,
  CLIENT_CACHE_ENABLED,
  CLIENT_CACHE_MS,
  createTtlCache,
  DISPLAY_CACHE_TTL_MS,
  ROUTE_CACHE_TTL_MS,
} from './cache.ts';

function store() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
    key: (i: number) => [...data.keys()][i] ?? null,
    get length() {
      return data.size;
    },
  };
}

describe('ttl cache', () => {
  it('has the spec constants', () => {
    expect(CACHE_TTL_MS).toBe(60_000);
    expect(DISPLAY_CACHE_TTL_MS).toBe(300_000);
    expect(ROUTE_CACHE_TTL_MS).toBe(300_000);
    expect(CLIENT_CACHE_ENABLED).toBe(false);
    expect(CLIENT_CACHE_MS).toBe(1_800_000);
  });
  it('answers until the default ttl of 60 s, then forgets', () => {
    let t = 0;
    const c = createTtlCache<number>({ now: () => t });
    c.set('k', 1);
    t = 59_999;
    expect(c.get('k')).toBe(1);
    t = 60_000;
    expect(c.get('k')).toBeUndefined();
  });
  it('takes a ttl per entry', () => {
    let t = 0;
    const c = createTtlCache<string>({ now: () => t });
    c.set('route', 'r', ROUTE_CACHE_TTL_MS);
    t = 200_000;
    expect(c.get('route')).toBe('r');
    t = 300_001;
    expect(c.get('route')).toBeUndefined();
  });
  it('loads once for concurrent callers and reloads after expiry', async () => {
    let t = 0;
    let calls = 0;
    const c = createTtlCache<number>({ now: () => t });
    const loader = async () => ++calls;
    const [a, b] = await Promise.all([c.load('x', loader), c.load('x', loader)]);
    expect([a, b, calls]).toEqual([1, 1, 1]);
    expect(await c.load('x', loader)).toBe(1);
    t = CACHE_TTL_MS;
    expect(await c.load('x', loader)).toBe(2);
  });
  it('a failed load is not cached', async () => {
    const c = createTtlCache<number>();
    await expect(c.load('x', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await c.load('x', async () => 5)).toBe(5);
  });
  it('persists to a store, and purge at start drops expired entries only', () => {
    let t = 0;
    const s = store();
    const c1 = createTtlCache<number>({ now: () => t, store: s });
    c1.set('old', 1, 10);
    c1.set('new', 2, 1000);
    s.setItem('unrelated', 'x');
    t = 500;
    const c2 = createTtlCache<number>({ now: () => t, store: s });
    expect(c2.purge()).toBe(1);
    expect(c2.get('new')).toBe(2);
    expect(s.data.has('lc_cache:old')).toBe(false);
    expect(s.data.has('unrelated')).toBe(true);
  });
});
