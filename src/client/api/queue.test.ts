import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueue } from './queue.ts';

function deferred<T = string>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('request queue', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at most `limit` tasks at once, the rest in order', async () => {
    const q = createQueue({ limit: 2, shareMs: 2000 });
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const results = gates.map((g, i) =>
      q.run(() => {
        started.push(i);
        return g.promise;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(q.running).toBe(2);
    expect(q.waiting).toBe(2);
    gates[1]!.resolve('b');
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.resolve('a');
    gates[2]!.resolve('c');
    gates[3]!.resolve('d');
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect(q.running).toBe(0);
  });

  it('a failing task frees its slot', async () => {
    const q = createQueue({ limit: 1, shareMs: 2000 });
    const first = q.run(() => Promise.reject(new Error('no')));
    const second = q.run(() => Promise.resolve('ok'));
    await expect(first).rejects.toThrow('no');
    expect(await second).toBe('ok');
  });

  it('shares identical calls while running and for shareMs after success', async () => {
    const q = createQueue({ limit: 20, shareMs: 2000 });
    let calls = 0;
    const task = async () => ++calls;
    const [a, b] = await Promise.all([q.run(task, 'k'), q.run(task, 'k')]);
    expect([a, b, calls]).toEqual([1, 1, 1]);
    vi.setSystemTime(Date.now() + 1999);
    expect(await q.run(task, 'k')).toBe(1);
    vi.setSystemTime(Date.now() + 2);
    expect(await q.run(task, 'k')).toBe(2);
    expect(await q.run(task, 'other')).toBe(3);
  });

  it('does not share a failed answer', async () => {
    const q = createQueue({ limit: 20, shareMs: 2000 });
    let calls = 0;
    const task = async () => {
      calls++;
      if (calls === 1) throw new Error('first fails');
      return calls;
    };
    await expect(q.run(task, 'k')).rejects.toThrow('first fails');
    expect(await q.run(task, 'k')).toBe(2);
  });

  it('warns when more than warnAbove calls wait, at most once per debounce window', async () => {
    const onCrowded = vi.fn();
    const q = createQueue({ limit: 1, shareMs: 2000, warnAbove: 2, warnDebounceMs: 1000, onCrowded });
    const gate = deferred();
    const all = [q.run(() => gate.promise)];
    for (let i = 0; i < 5; i++) all.push(q.run(() => Promise.resolve('x')));
    expect(onCrowded).toHaveBeenCalledTimes(1);
    expect(onCrowded).toHaveBeenCalledWith(3);
    vi.setSystemTime(Date.now() + 1000);
    all.push(q.run(() => Promise.resolve('y')));
    expect(onCrowded).toHaveBeenCalledTimes(2);
    gate.resolve('done');
    await Promise.all(all);
  });
});
