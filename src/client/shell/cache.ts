/**
 * Caches with a ttl (runtime spec §4 "Caches", §9): entries expire after their ttl (default 60 s);
 * display and route dataset caches keep 300 s. A cached value is valid until its expiry, then
 * reloaded; expired entries are purged at start. The client's default request cache is disabled
 * (`CLIENT_CACHE_ENABLED`); a caller that opts in keeps answers for `CLIENT_CACHE_MS` (30 min).
 */
export const CACHE_TTL_MS = 60_000;
export const DISPLAY_CACHE_TTL_MS = 300_000;
export const ROUTE_CACHE_TTL_MS = 300_000;
export const CLIENT_CACHE_ENABLED = false;
export const CLIENT_CACHE_MS = 30 * 60_000;

export interface TtlCacheOptions {
  ttlMs?: number;
  now?: () => number;
  /** Where entries persist (e.g. localStorage); memory only when absent. */
  store?: {
    getItem(k: string): string | null;
    setItem(k: string, v: string): void;
    removeItem(k: string): void;
    key?(i: number): string | null;
    readonly length?: number;
  };
  /** Key prefix in the store. */
  prefix?: string;
}

interface Entry<T> {
  value: T;
  expires: number;
}

export interface TtlCache<T> {
  get(key: string): T | undefined;
  set(key: string, value: T, ttlMs?: number): void;
  delete(key: string): void;
  /** The cached value, or load it once (concurrent callers share the load) and cache it. */
  load(key: string, loader: () => Promise<T>, ttlMs?: number): Promise<T>;
  /** Drop every expired entry (memory and store); answers how many went. */
  purge(): number;
  clear(): void;
}

export function createTtlCache<T>(options: TtlCacheOptions = {}): TtlCache<T> {
  const ttl = options.ttlMs ?? CACHE_TTL_MS;
  const now = options.now ?? (() => Date.now());
  const store = options.store;
  const prefix = options.prefix ?? 'lc_cache:';
  const memory = new Map<string, Entry<T>>();
  const pending = new Map<string, Promise<T>>();

  function read(key: string): Entry<T> | undefined {
    const m = memory.get(key);
    if (m) return m;
    if (!store) return undefined;
    try {
      const text = store.getItem(prefix + key);
      if (!text) return undefined;
      const e = JSON.parse(text) as Entry<T>;
      if (typeof e?.expires !== 'number') return undefined;
      memory.set(key, e);
      return e;
    } catch {
      return undefined;
    }
  }

  function remove(key: string): void {
    memory.delete(key);
    try {
      store?.removeItem(prefix + key);
    } catch {
      // Storage unavailable: memory is enough.
    }
  }

  const cache: TtlCache<T> = {
    get(key) {
      const e = read(key);
      if (!e) return undefined;
      if (e.expires <= now()) {
        remove(key);
        return undefined;
      }
      return e.value;
    },
    set(key, value, ttlMs) {
      const e = { value, expires: now() + (ttlMs ?? ttl) };
      memory.set(key, e);
      try {
        store?.setItem(prefix + key, JSON.stringify(e));
      } catch {
        // Full or unavailable storage: keep it in memory.
      }
    },
    delete: remove,
    load(key, loader, ttlMs) {
      const hit = cache.get(key);
      if (hit !== undefined) return Promise.resolve(hit);
      const running = pending.get(key);
      if (running) return running;
      const p = loader().then(
        (value) => {
          pending.delete(key);
          cache.set(key, value, ttlMs);
          return value;
        },
        (err: unknown) => {
          pending.delete(key);
          throw err;
        },
      );
      pending.set(key, p);
      return p;
    },
    purge() {
      let n = 0;
      const t = now();
      for (const [k, e] of memory) {
        if (e.expires <= t) {
          remove(k);
          n++;
        }
      }
      if (store?.key && typeof store.length === 'number') {
        const keys: string[] = [];
        for (let i = 0; i < store.length; i++) {
          const k = store.key(i);
          if (k?.startsWith(prefix)) keys.push(k.slice(prefix.length));
        }
        for (const k of keys) {
          if (memory.has(k)) continue;
          const e = read(k);
          if (!e || e.expires <= t) {
            remove(k);
            n++;
          }
        }
      }
      return n;
    },
    clear() {
      for (const k of [...memory.keys()]) remove(k);
    },
  };
  return cache;
}
