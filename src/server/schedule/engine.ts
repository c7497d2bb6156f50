/**
 * The schedule engine, one per server process. It keeps the enabled tasks in memory with their next
 * fire time in a min-heap and sleeps on ONE timer until the nearest fire, so idle cost does not grow
 * with the number of tasks. At a fire it claims the (task, fire time) row; only the process whose
 * insert wins runs the program. A fire older than `graceMs` when the engine gets to it (no process
 * was running, or this one was stalled) is logged once as missed, never run late. See README.md.
 */
import os from 'node:os';
import type { Cron } from 'croner';
import type { Redis } from 'ioredis';
import { newId } from '../../shared/id.ts';
import { beijingText, cronOf } from '../../shared/schedule/index.ts';
import type { Database } from '../db/index.ts';
import {
  type ArmedTask,
  claimFire,
  claimFires,
  enabledTasks,
  fingerprint,
  finishFires,
  lastFires,
  trimFires,
} from './fires.ts';
import type { FireOutcome } from './run-task.ts';

export interface EngineOptions {
  /** Runs a claimed fire (the program run in the server; a stand-in in the bench). */
  run: (taskId: string, fireTime: number) => Promise<FireOutcome>;
  /** How often the task table is polled for changes made by other processes. */
  pollMs?: number;
  /** A fire later than this when its turn comes is logged as missed instead of run. */
  graceMs?: number;
  /** With REDIS_URL: changes are announced to every process at once (the poll stays as a fallback). */
  redisUrl?: string | undefined;
  /** This process's name in the fire rows. */
  node?: string;
  onError?: (err: unknown, where: string) => void;
  /** Called after each claim attempt (bench and tests measure lag and winners). */
  onClaim?: (fire: { task: string; time: number; won: boolean; claimedAt: number }) => void;
}

interface Entry {
  id: string;
  cron: string;
  updatedAt: number;
  armedAt: number;
  /** The last fire handled (run, lost to another process, or logged missed). */
  cursor: number;
  next: number;
  /** Bumped when the entry is replaced or dropped: older heap items are stale. */
  gen: number;
  fires: number;
  /** 0–49: which of its fires trims the log. */
  trimTurn: number;
  /** Armed at boot: fires from before the boot are missed unless barely due (BOOT_GRACE_MS). */
  boot: boolean;
}

type HeapItem = { at: number; id: string; gen: number };

/** A binary min-heap on `at`. */
class Heap {
  private a: HeapItem[] = [];
  get size(): number {
    return this.a.length;
  }
  peek(): HeapItem | undefined {
    return this.a[0];
  }
  push(x: HeapItem): void {
    const a = this.a;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p]!.at <= x.at) break;
      a[i] = a[p]!;
      i = p;
    }
    a[i] = x;
  }
  pop(): HeapItem | undefined {
    const a = this.a;
    const top = a[0];
    const last = a.pop();
    if (!a.length || !last) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      let mAt = last.at;
      if (l < a.length && a[l]!.at < mAt) {
        m = l;
        mAt = a[l]!.at;
      }
      if (r < a.length && a[r]!.at < mAt) m = r;
      if (m === i) break;
      a[i] = a[m]!;
      i = m;
    }
    a[i] = last;
    return top;
  }
  clear(): void {
    this.a = [];
  }
}

/**
 * Fire times by cron text, shared by every task with that cron and memoised per second: croner
 * takes about a millisecond to build a job and a fraction of one per `nextRun`, so 1,000 tasks on
 * one cron cost one computation per second instead of 1,000.
 */
class CronTimes {
  private readonly jobs = new Map<string, { job: Cron; memo: Map<number, number | undefined> }>();

  private of(cron: string) {
    let c = this.jobs.get(cron);
    if (!c) {
      c = { job: cronOf(cron), memo: new Map() };
      this.jobs.set(cron, c);
    }
    return c;
  }

  /** Throws when the cron does not parse. */
  check(cron: string): void {
    this.of(cron);
  }

  /** The first fire strictly after `after` (fires fall on whole seconds, so the second is the key). */
  next(cron: string, after: number): number | undefined {
    const c = this.of(cron);
    const key = Math.floor(after / 1000);
    if (c.memo.has(key)) return c.memo.get(key);
    if (c.memo.size > 512) c.memo.clear();
    const n = c.job.nextRun(new Date(key * 1000))?.getTime();
    c.memo.set(key, n);
    return n;
  }

  /** Forgets crons no task uses any more. */
  keep(used: Set<string>): void {
    for (const cron of this.jobs.keys()) if (!used.has(cron)) this.jobs.delete(cron);
  }
}

const CHANNEL = 'lc:schedule-changed';
const MAX_TIMEOUT = 2 ** 31 - 1;
/** Counting missed fires stops here (a task firing every second, down for a day). */
const MISSED_COUNT_CAP = 1000;
/** At boot, a fire due longer ago than this happened while no process of ours ran it. */
const BOOT_GRACE_MS = 1000;
/** Finished fires wait this long to be written together. */
const FLUSH_MS = 100;

export class ScheduleEngine {
  private readonly entries = new Map<string, Entry>();
  private readonly heap = new Heap();
  private readonly times = new CronTimes();
  private readonly inflight = new Set<Promise<void>>();
  private finished: {
    task: string;
    time: number;
    state: 'success' | 'fail' | 'skipped';
    result: string;
    runId: string | null;
    at: number;
  }[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private poller: NodeJS.Timeout | undefined;
  private print = '';
  private running = false;
  private reloading: Promise<void> | undefined;
  private reloadAgain = false;
  private pub: Redis | undefined;
  private sub: Redis | undefined;
  readonly node: string;
  private readonly pollMs: number;
  private readonly graceMs: number;

  constructor(
    private readonly database: Database,
    private readonly opts: EngineOptions,
  ) {
    this.node = opts.node ?? `${os.hostname()}:${process.pid}:${newId().slice(-6)}`;
    this.pollMs = opts.pollMs ?? 1000;
    this.graceMs = opts.graceMs ?? 5000;
  }

  get started(): boolean {
    return this.running;
  }

  /** Number of tasks armed in this process. */
  get size(): number {
    return this.entries.size;
  }

  /** The next fire this process waits for (ms), if any. */
  get nextFire(): number | undefined {
    return this.heap.peek()?.at;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.reload(true);
    this.poller = setInterval(() => void this.poll(), this.pollMs);
    this.poller.unref();
    if (this.opts.redisUrl) {
      try {
        const { Redis } = await import('ioredis');
        this.pub = new Redis(this.opts.redisUrl, { maxRetriesPerRequest: 3 });
        this.sub = this.pub.duplicate();
        this.sub.on('message', (channel: string) => {
          if (channel === CHANNEL) void this.poll();
        });
        await this.sub.subscribe(CHANNEL);
      } catch (err) {
        this.error(err, 'redis');
      }
    }
  }

  /** Stops arming fires; waits for the runs in flight. */
  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.poller);
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    this.sub?.disconnect();
    this.pub?.disconnect();
    this.sub = this.pub = undefined;
    await this.reloading?.catch(() => undefined);
    await Promise.allSettled([...this.inflight]);
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    await this.flush();
    this.entries.clear();
    this.heap.clear();
  }

  /** A task changed here: reload now, and tell the other processes (with Redis). */
  changed(): void {
    if (!this.running) return;
    void this.poll();
    this.pub?.publish(CHANNEL, '1').catch((err) => this.error(err, 'redis publish'));
  }

  private error(err: unknown, where: string): void {
    this.opts.onError?.(err, where);
  }

  private async poll(): Promise<void> {
    if (!this.running) return;
    try {
      const p = await fingerprint(this.database.db);
      if (p !== this.print) await this.reload(false);
    } catch (err) {
      this.error(err, 'poll');
    }
  }

  /** Reads the enabled tasks and brings the in-memory set in line (one reload at a time). */
  private async reload(boot: boolean): Promise<void> {
    if (this.reloading) {
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.reloadAgain = false;
        const print = await fingerprint(this.database.db);
        const tasks = await enabledTasks(this.database.db);
        await this.apply(tasks, boot);
        this.print = print;
      } while (this.reloadAgain && this.running);
    })().finally(() => {
      this.reloading = undefined;
    });
    return this.reloading;
  }

  private async apply(tasks: ArmedTask[], boot: boolean): Promise<void> {
    if (!this.running) return;
    const seen = new Set<string>();
    const fresh: ArmedTask[] = [];
    for (const t of tasks) {
      seen.add(t.id);
      const e = this.entries.get(t.id);
      if (e && e.updatedAt === t.updated_at) continue;
      if (e && e.cron === t.cron && e.armedAt === t.armed_at) {
        e.updatedAt = t.updated_at;
        continue;
      }
      fresh.push(t);
    }
    for (const [id, e] of this.entries)
      if (!seen.has(id)) {
        e.gen += 1;
        this.entries.delete(id);
      }
    // On boot, a task's cursor starts at its last logged fire: what lies between was missed.
    const last = boot
      ? await lastFires(
          this.database.db,
          fresh.map((t) => t.id),
        )
      : new Map<string, number>();
    const now = Date.now();
    for (const t of fresh) {
      try {
        this.times.check(t.cron);
      } catch (err) {
        this.error(err, `cron of ${t.id}`);
        continue;
      }
      const old = this.entries.get(t.id);
      const cursor = Math.max(t.armed_at, last.get(t.id) ?? 0, old && old.cron === t.cron ? old.cursor : 0);
      // A cursor far in the past would make the first wake count years of fires: the count is capped.
      const next = this.times.next(t.cron, Math.min(cursor, now));
      if (old) old.gen += 1;
      if (next === undefined) {
        this.entries.delete(t.id);
        continue;
      }
      const e: Entry = {
        id: t.id,
        cron: t.cron,
        updatedAt: t.updated_at,
        armedAt: t.armed_at,
        cursor,
        next,
        gen: (old?.gen ?? 0) + 1,
        fires: 0,
        trimTurn: Math.floor(Math.random() * 50),
        boot,
      };
      this.entries.set(t.id, e);
      this.heap.push({ at: next, id: t.id, gen: e.gen });
    }
    this.times.keep(new Set([...this.entries.values()].map((e) => e.cron)));
    this.arm();
  }

  /** Sets the one timer for the nearest fire (dropping stale heap items on the way). */
  private arm(): void {
    if (!this.running) return;
    let top = this.heap.peek();
    while (top && this.entries.get(top.id)?.gen !== top.gen) {
      this.heap.pop();
      top = this.heap.peek();
    }
    const at = top?.at ?? Number.POSITIVE_INFINITY;
    if (at === this.timerAt && this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = at;
    if (at === Number.POSITIVE_INFINITY) return;
    const delay = Math.min(MAX_TIMEOUT, Math.max(0, at - Date.now()));
    this.timer = setTimeout(() => this.wake(), delay);
  }

  private wake(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    if (!this.running) return;
    const now = Date.now();
    const batch: { e: Entry; time: number }[] = [];
    for (let top = this.heap.peek(); top && top.at <= now; top = this.heap.peek()) {
      this.heap.pop();
      const e = this.entries.get(top.id);
      if (!e || e.gen !== top.gen) continue;
      const time = this.due(e, now);
      if (time !== undefined) batch.push({ e, time });
    }
    if (batch.length) this.track(this.fire(batch));
    this.arm();
  }

  /**
   * Every fire of `e` up to now: the latest runs if it is within grace (answered, to be claimed with
   * the others due now), the others are logged missed.
   */
  private due(e: Entry, now: number): number | undefined {
    const fires: number[] = [e.next];
    let capped = false;
    for (;;) {
      const n = this.times.next(e.cron, fires[fires.length - 1]!);
      if (n === undefined || n > now) break;
      if (fires.length >= MISSED_COUNT_CAP) {
        capped = true;
        break;
      }
      fires.push(n);
    }
    const latest = fires[fires.length - 1]!;
    const runLatest = now - latest <= (e.boot ? Math.min(BOOT_GRACE_MS, this.graceMs) : this.graceMs);
    e.boot = false;
    const missed = runLatest ? fires.slice(0, -1) : fires;
    if (missed.length) this.track(this.logMissed(e, missed, capped));
    e.cursor = latest;
    const next = this.times.next(e.cron, Math.max(latest, capped ? now : latest));
    if (next === undefined) {
      e.gen += 1;
      this.entries.delete(e.id);
    } else {
      e.next = next;
      this.heap.push({ at: next, id: e.id, gen: e.gen });
    }
    return runLatest ? latest : undefined;
  }

  private track(p: Promise<void>): void {
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
  }

  private async logMissed(e: Entry, missed: number[], capped: boolean): Promise<void> {
    const first = missed[0]!;
    // Logged at the LAST missed time: a process booting now starts its cursor at the latest logged
    // fire, so it counts the same misses (and its insert meets this row) instead of a second log.
    const last = missed[missed.length - 1]!;
    const n = `${missed.length}${capped ? '+' : ''}`;
    const result =
      missed.length === 1
        ? `missed: no server ran the task at ${beijingText(first)} (Beijing time)`
        : `missed ${n} fires from ${beijingText(first)} to ${beijingText(last)} (Beijing time): no server ran the task`;
    try {
      await claimFire(this.database.db, {
        task: e.id,
        cron: e.cron,
        time: last,
        node: this.node,
        state: 'missed',
        result,
      });
    } catch (err) {
      this.error(err, 'log missed');
    }
  }

  /** Claims the fires due at one wake in one statement, then runs the ones this process won. */
  private async fire(batch: { e: Entry; time: number }[]): Promise<void> {
    let won: Set<string>;
    try {
      won = await claimFires(
        this.database.db,
        this.node,
        batch.map(({ e, time }) => ({ task: e.id, cron: e.cron, time })),
      );
    } catch (err) {
      this.error(err, 'claim');
      return;
    }
    const claimedAt = Date.now();
    const runs: Promise<void>[] = [];
    for (const { e, time } of batch) {
      const mine = won.has(`${e.id}@${time}`);
      this.opts.onClaim?.({ task: e.id, time, won: mine, claimedAt });
      if (mine) runs.push(this.runOne(e, time));
    }
    await Promise.all(runs);
  }

  private async runOne(e: Entry, time: number): Promise<void> {
    let out: FireOutcome;
    try {
      out = await this.opts.run(e.id, time);
    } catch (err) {
      this.error(err, 'run');
      out = { state: 'fail', result: 'internal error', runId: null };
    }
    this.finished.push({ task: e.id, time, ...out, at: Date.now() });
    this.flushSoon();
    e.fires += 1;
    // Each task trims its log every 50 of its fires, at its own turn (tasks armed together would
    // otherwise all trim in the same second).
    if ((e.fires + e.trimTurn) % 50 === 0)
      await trimFires(this.database.db, e.id).catch((err) => this.error(err, 'trim'));
  }

  /** Outcomes are written in batches (one commit per batch) a moment after they arrive. */
  private flushSoon(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.track(this.flush());
    }, FLUSH_MS);
  }

  private async flush(): Promise<void> {
    const done = this.finished.splice(0);
    try {
      await finishFires(this.database.db, done);
    } catch (err) {
      this.error(err, 'finish');
    }
  }
}
