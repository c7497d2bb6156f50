/**
 * The request queue (runtime spec "Request queue", §9): at most `limit` calls run at once, the rest
 * wait in order; an identical call made while another is running, or within `shareMs` after it
 * succeeded, gets the same answer instead of going out again.
 */
export interface QueueOptions {
  limit: number;
  shareMs: number;
  /** Called (at most once per `warnDebounceMs`) when more than `warnAbove` calls wait. */
  onCrowded?: (waiting: number) => void;
  warnAbove?: number;
  warnDebounceMs?: number;
  now?: () => number;
}

interface Shared {
  promise: Promise<unknown>;
  /** Time the call settled successfully; undefined while running. */
  doneAt?: number;
}

export interface RequestQueue {
  /** Run `task` under the limit; `key` (when given) lets identical calls share one answer. */
  run<T>(task: () => Promise<T>, key?: string): Promise<T>;
  readonly running: number;
  readonly waiting: number;
}

export function createQueue(options: QueueOptions): RequestQueue {
  const now = options.now ?? Date.now;
  const warnAbove = options.warnAbove ?? Number.POSITIVE_INFINITY;
  const warnDebounceMs = options.warnDebounceMs ?? 1000;
  const waiters: Array<() => void> = [];
  const shared = new Map<string, Shared>();
  let running = 0;
  let lastWarn = Number.NEGATIVE_INFINITY;

  function next(): void {
    while (running < options.limit && waiters.length > 0) {
      running++;
      waiters.shift()!();
    }
  }

  function slot(): Promise<void> {
    if (running < options.limit) {
      running++;
      return Promise.resolve();
    }
    const wait = new Promise<void>((resolve) => waiters.push(resolve));
    if (waiters.length > warnAbove && now() - lastWarn >= warnDebounceMs) {
      lastWarn = now();
      options.onCrowded?.(waiters.length);
    }
    return wait;
  }

  async function limited<T>(task: () => Promise<T>): Promise<T> {
    await slot();
    try {
      return await task();
    } finally {
      running--;
      next();
    }
  }

  function run<T>(task: () => Promise<T>, key?: string): Promise<T> {
    if (key === undefined) return limited(task);
    const hit = shared.get(key);
    if (hit && (hit.doneAt === undefined || now() - hit.doneAt < options.shareMs)) {
      return hit.promise as Promise<T>;
    }
    const entry: Shared = { promise: limited(task) };
    shared.set(key, entry);
    entry.promise.then(
      () => {
        entry.doneAt = now();
        // Forget it once the sharing window is over, so the map does not grow.
        setTimeout(() => {
          if (shared.get(key) === entry) shared.delete(key);
        }, options.shareMs);
      },
      // A failed call is never shared afterwards: a retry goes out again.
      () => {
        if (shared.get(key) === entry) shared.delete(key);
      },
    );
    return entry.promise as Promise<T>;
  }

  return {
    run,
    get running() {
      return running;
    },
    get waiting() {
      return waiters.length;
    },
  };
}
