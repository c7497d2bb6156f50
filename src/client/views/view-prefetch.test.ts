import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const calls: string[] = [];
vi.mock('../api/views.ts', () => ({
  viewsApi: {
    meta: (project: string, entity: string) => {
      calls.push(`meta ${project}/${entity}`);
      return Promise.resolve({ entity: { _id: entity }, field: [] });
    },
    rows: (project: string, entity: string, body: unknown) => {
      calls.push(`rows ${project}/${entity} ${JSON.stringify(body)}`);
      return entity === 'gone' ? Promise.reject(new Error('1400')) : Promise.resolve({ data: [] });
    },
  },
}));
const { prefetchView, settledMeta, settledPage, takeMeta, takePage } = await import('./view-prefetch.ts');

const first = { page: { index: 1, size: 20 } };

describe('a list entry route’s first calls', () => {
  beforeEach(() => {
    calls.length = 0;
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('starts the meta and the first page once, and each is taken once', async () => {
    prefetchView('p', 'orders', first);
    expect(calls).toEqual(['meta p/orders', `rows p/orders ${JSON.stringify(first)}`]);
    expect(await takeMeta('p', 'orders')).toMatchObject({ entity: { _id: 'orders' } });
    expect(takeMeta('p', 'orders')).toBeUndefined();
    expect(await takePage('p', 'orders', { page: { index: 1, size: 20 } })).toEqual({ data: [] });
    expect(takePage('p', 'orders', first)).toBeUndefined();
  });

  it('gives nothing for another body, table or project, and drops what it held', () => {
    prefetchView('p', 'orders', first);
    expect(takePage('p', 'orders', { page: { index: 1, size: 50 } })).toBeUndefined();
    // The mismatch dropped it: the right body no longer finds it either.
    expect(takePage('p', 'orders', first)).toBeUndefined();
    expect(takeMeta('p', 'other')).toBeUndefined();
    expect(takeMeta('q', 'orders')).toBeUndefined();
    expect(takeMeta('p', 'orders')).toBeDefined();
  });

  it('asks no page without a body (a kept grouping sorts it later)', () => {
    prefetchView('p', 'orders');
    expect(calls).toEqual(['meta p/orders']);
    expect(takePage('p', 'orders', first)).toBeUndefined();
  });

  it('does not hand over an answer older than a few seconds', () => {
    prefetchView('p', 'orders', first);
    vi.advanceTimersByTime(6000);
    expect(takeMeta('p', 'orders')).toBeUndefined();
    expect(takePage('p', 'orders', first)).toBeUndefined();
  });

  it('shows an answer already in without taking it, for the same call only', async () => {
    prefetchView('p', 'orders', first);
    expect(settledMeta('p', 'orders')).toBeUndefined();
    await Promise.resolve();
    await Promise.resolve();
    expect(settledMeta('p', 'orders')).toMatchObject({ entity: { _id: 'orders' } });
    expect(settledPage('p', 'orders', first)).toEqual({ data: [] });
    expect(settledPage('p', 'orders', { page: { index: 1, size: 50 } })).toBeUndefined();
    expect(settledMeta('p', 'other')).toBeUndefined();
    // Peeking took nothing: the view still takes each once.
    expect(await takeMeta('p', 'orders')).toMatchObject({ entity: { _id: 'orders' } });
    expect(await takePage('p', 'orders', first)).toEqual({ data: [] });
    expect(settledMeta('p', 'orders')).toBeUndefined();
    prefetchView('p', 'orders', first);
    await Promise.resolve();
    await Promise.resolve();
    vi.advanceTimersByTime(6000);
    expect(settledPage('p', 'orders', first)).toBeUndefined();
  });

  it('waits for both answers, or for its bound when they are slow', async () => {
    let done = false;
    await prefetchView('p', 'orders', first, 500).then(() => {
      done = true;
    });
    expect(done).toBe(true);
    expect(settledPage('p', 'orders', first)).toEqual({ data: [] });
    // A failed page ends the wait too (the view shows the failure when it takes it).
    await prefetchView('p', 'gone', first, 500);
    expect(settledPage('p', 'gone', first)).toBeUndefined();
    await expect(takePage('p', 'gone', first)).rejects.toThrow('1400');
  });

  it('stops waiting at its bound', async () => {
    const real = await import('../api/views.ts');
    const rows = real.viewsApi.rows;
    real.viewsApi.rows = () => new Promise(() => undefined);
    try {
      let done = false;
      const wait = prefetchView('p', 'slow', first, 500).then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(499);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await wait;
      expect(done).toBe(true);
      expect(settledPage('p', 'slow', first)).toBeUndefined();
    } finally {
      real.viewsApi.rows = rows;
    }
  });

  it('keeps a failure for the view that takes it', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    prefetchView('p', 'gone', first);
    await expect(takePage('p', 'gone', first)).rejects.toThrow('1400');
    await Promise.resolve();
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
  });
});
