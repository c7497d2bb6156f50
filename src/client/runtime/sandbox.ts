/**
 * The page side of the sandbox: one worker per window, in a sandboxed frame of its own process
 * (sandbox-frame.ts), runs the project's setup script (once, 100 ms after the first page asks for it)
 * and then code commands. Code commands wait until setup is ready (queued waiters are flushed then).
 * A run longer than the time limit kills the worker; a fresh one starts (and runs setup again) for
 * the next run. Time spent waiting for the user (an `api.openModal` until the modal closes) does not
 * count, but meanwhile the worker must answer a heartbeat: code busy in a loop while it "waits" is
 * stopped all the same. When the frame's process dies (out of memory, a crash) the page is told the
 * code stopped; a fresh sandbox starts for the next run, without the setup script (which may well be
 * what ate the memory: running it again would crash again).
 */
import i18next from 'i18next';
import { en } from '../i18n/en.ts';
import { notify } from './notices.ts';
import { FramedWorker, type SandboxWorker } from './sandbox-frame.ts';
import {
  type ApiMethod,
  type FromWorker,
  type RunContext,
  type ToWorker,
  WAITS_FOR_USER,
} from './sandbox-protocol.ts';

export const SANDBOX_TIME_LIMIT_MS = 5000;
export const SETUP_DEBOUNCE_MS = 100;
/** How often an idle-looking worker is asked whether it is free, while a run waits for the user. */
export const HEARTBEAT_MS = 1000;

/** What the page does for builder code (the documented `api`). */
export interface SandboxHost {
  context(): RunContext;
  call(method: ApiMethod, args: unknown[]): Promise<unknown> | unknown;
}

/** Why a run failed: its own error (`code`), or the sandbox stopped it. */
export type SandboxErrorKind = 'code' | 'timeout' | 'unresponsive' | 'crashed' | 'error' | 'closed';

export class SandboxError extends Error {
  constructor(
    message: string,
    readonly kind: SandboxErrorKind = 'code',
  ) {
    super(message);
  }
}

/** The worker's process died (out of memory, a crash). */
function crashed(): SandboxError {
  return new SandboxError(say('codeStopped'), 'crashed');
}

/** A runtime notice in the user's language (English where i18n is not set up, as in unit tests). */
function say(
  key: 'codeStopped' | 'codeTimeout' | 'codeUnresponsive',
  vars: Record<string, unknown> = {},
): string {
  return i18next.isInitialized
    ? i18next.t(`runtime.${key}`, vars)
    : en.runtime[key].replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k]));
}

interface Running {
  host: SandboxHost;
  resolve(): void;
  reject(e: Error): void;
  /** The time-limit timer; null while the run waits for the user. */
  timer: ReturnType<typeof setTimeout> | null;
  /** What is left of the time limit, and when the current timer started. */
  remaining: number;
  since: number;
  /** Calls of this run that wait for the user now. */
  waiting: number;
}

export interface SandboxOptions {
  timeLimitMs?: number;
  createWorker?: () => SandboxWorker;
}

/** The worker's bundled source, loaded once (a lazy chunk: pages without code never fetch it). */
let workerSource: Promise<string> | null = null;

function defaultWorker(): SandboxWorker {
  workerSource ??= import('./sandbox-worker.ts?sandbox-source').then(
    (m) => m.default,
    (err: unknown) => {
      workerSource = null;
      throw err;
    },
  );
  return new FramedWorker(workerSource);
}

export class Sandbox {
  private worker: SandboxWorker | null = null;
  private runs = new Map<number, Running>();
  private seq = 0;
  private setupCode = '';
  private setupHost: SandboxHost | null = null;
  private setupState: 'none' | 'scheduled' | 'running' | 'ready' = 'none';
  private setupTimer: ReturnType<typeof setTimeout> | null = null;
  private waiters: (() => void)[] = [];
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private lastAlive = 0;
  private pingSeq = 0;
  /** The sandbox crashed once: the setup script is not run again in this window. */
  private setupDropped = false;
  readonly timeLimitMs: number;
  private readonly create: () => SandboxWorker;
  /** Setup failures, and a crash while no run was waiting, are reported here (the page shows a notice). */
  onError: (message: string) => void = () => {};

  constructor(opts: SandboxOptions = {}) {
    this.timeLimitMs = opts.timeLimitMs ?? SANDBOX_TIME_LIMIT_MS;
    this.create = opts.createWorker ?? defaultWorker;
  }

  private ensureWorker(): SandboxWorker {
    if (this.worker) return this.worker;
    const w = this.create();
    w.addEventListener('message', (e) => void this.onMessage(w, e.data));
    w.addEventListener('error', (e) => {
      e.preventDefault?.();
      if (w === this.worker) this.kill(new SandboxError(e.message || 'sandbox error', 'error'));
    });
    w.addEventListener('crash', () => {
      if (w === this.worker) this.kill(crashed());
    });
    this.worker = w;
    return w;
  }

  private async onMessage(w: SandboxWorker, m: FromWorker | undefined): Promise<void> {
    if (w !== this.worker || !m || typeof m !== 'object') return;
    if (m.type === 'pong') {
      this.lastAlive = Date.now();
    } else if (m.type === 'done') {
      const r = this.runs.get(m.run);
      if (!r) return;
      this.runs.delete(m.run);
      if (r.timer) clearTimeout(r.timer);
      this.checkHeartbeat();
      if (m.ok) r.resolve();
      else r.reject(new SandboxError(String(m.error)));
    } else if (m.type === 'call') {
      const r = this.runs.get(m.run);
      const reply = (msg: ToWorker) => {
        if (this.worker === w) w.postMessage(msg);
      };
      if (!r) return reply({ type: 'reply', call: m.call, ok: false, error: 'run finished' });
      const waits = WAITS_FOR_USER.has(m.method);
      if (waits) this.pause(r);
      try {
        const value = await r.host.call(m.method, Array.isArray(m.args) ? m.args : []);
        if (waits) this.resume(m.run, r);
        reply({
          type: 'reply',
          call: m.call,
          ok: true,
          value: value === undefined ? null : JSON.parse(JSON.stringify(value)),
        });
      } catch (e) {
        if (waits) this.resume(m.run, r);
        const code = (e as { code?: unknown }).code;
        const msg = e instanceof Error ? e.message : String(e);
        reply({
          type: 'reply',
          call: m.call,
          ok: false,
          error: typeof code === 'number' ? `${code}: ${msg}` : msg,
        });
      }
    }
  }

  /** Stops counting a run's time while one of its calls waits for the user. */
  private pause(r: Running): void {
    r.waiting += 1;
    if (r.timer) {
      clearTimeout(r.timer);
      r.timer = null;
      r.remaining -= Date.now() - r.since;
    }
    if (!this.heartbeat) {
      this.lastAlive = Date.now();
      this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS);
    }
  }

  /** Counts the run's time again once nothing of it waits for the user. */
  private resume(run: number, r: Running): void {
    r.waiting = Math.max(0, r.waiting - 1);
    if (r.waiting === 0 && !r.timer && this.runs.get(run) === r) this.arm(r);
    this.checkHeartbeat();
  }

  private arm(r: Running): void {
    r.since = Date.now();
    r.timer = setTimeout(
      () => {
        // A frame that stopped answering died meanwhile: say so, not that the code ran long.
        this.kill(
          this.worker?.responsive?.() === false
            ? crashed()
            : new SandboxError(
                say('codeTimeout', {
                  s: this.timeLimitMs / 1000,
                }),
                'timeout',
              ),
        );
      },
      Math.max(0, r.remaining),
    );
  }

  private beat(): void {
    if (!this.worker) {
      this.checkHeartbeat();
      return;
    }
    if (Date.now() - this.lastAlive > this.timeLimitMs) {
      this.kill(
        this.worker.responsive?.() === false
          ? crashed()
          : new SandboxError(
              say('codeUnresponsive', {
                s: this.timeLimitMs / 1000,
              }),
              'unresponsive',
            ),
      );
      return;
    }
    this.worker.postMessage({ type: 'ping', ping: ++this.pingSeq } satisfies ToWorker);
  }

  /** The heartbeat runs only while some run waits for the user. */
  private checkHeartbeat(): void {
    if (!this.heartbeat) return;
    for (const r of this.runs.values()) if (r.waiting > 0 && this.worker) return;
    clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /**
   * Stops the worker (time limit, error, crash); pending runs fail with the reason (their runners
   * show it). Setup runs again on the next run, except after a crash. A crash while nothing ran is
   * reported through onError, so the user hears of it all the same.
   */
  private kill(reason: SandboxError): void {
    this.worker?.terminate();
    this.worker = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    const waiting = this.runs.size;
    for (const [, r] of this.runs) {
      if (r.timer) clearTimeout(r.timer);
      r.reject(reason);
    }
    this.runs.clear();
    if (reason.kind === 'crashed') {
      this.setupDropped = true;
      if (waiting === 0) this.onError(reason.message);
    }
    if (this.setupState === 'ready' && this.setupCode && !this.setupDropped) this.setupState = 'none';
  }

  /** Runs code in the worker; resolves when its async body finished, rejects on error or time-out. */
  private exec(code: string, host: SandboxHost): Promise<void> {
    const w = this.ensureWorker();
    const run = ++this.seq;
    return new Promise<void>((resolve, reject) => {
      const r: Running = {
        host,
        resolve,
        reject,
        timer: null,
        remaining: this.timeLimitMs,
        since: 0,
        waiting: 0,
      };
      this.arm(r);
      this.runs.set(run, r);
      w.postMessage({ type: 'run', run, code, context: host.context() } satisfies ToWorker);
    });
  }

  /** Sets the setup script; it runs once, SETUP_DEBOUNCE_MS after the last call. */
  setup(code: string, host: SandboxHost): void {
    this.setupCode = code;
    this.setupHost = host;
    if (this.setupState === 'ready' || this.setupState === 'running') return;
    this.setupState = 'scheduled';
    if (this.setupTimer) clearTimeout(this.setupTimer);
    this.setupTimer = setTimeout(() => void this.runSetup(), SETUP_DEBOUNCE_MS);
  }

  private async runSetup(): Promise<void> {
    this.setupTimer = null;
    this.setupState = 'running';
    if (this.setupCode.trim() && this.setupHost && !this.setupDropped) {
      try {
        await this.exec(this.setupCode, this.setupHost);
      } catch (e) {
        // Spec: setup errors are logged (and shown once as a notice).
        console.error('setup script failed', e);
        this.onError(e instanceof Error ? e.message : String(e));
      }
    }
    this.setupState = 'ready';
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }

  /** Resolves once setup has run (at once when there is no setup scheduled). */
  ready(): Promise<void> {
    if (this.setupState === 'ready') return Promise.resolve();
    if (this.setupState === 'none') {
      if (!this.setupCode || !this.setupHost) return Promise.resolve();
      this.setup(this.setupCode, this.setupHost);
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Runs a code command after setup is ready. */
  async run(code: string, host: SandboxHost): Promise<void> {
    await this.ready();
    return this.exec(code, host);
  }

  dispose(): void {
    if (this.setupTimer) clearTimeout(this.setupTimer);
    this.kill(new SandboxError('sandbox closed', 'closed'));
  }
}

let shared: Sandbox | null = null;

/** The window's sandbox. Its stops are shown as error notices (pages with setup set the same). */
export function sandbox(): Sandbox {
  if (!shared) {
    shared = new Sandbox();
    shared.onError = (msg) => notify('error', msg);
  }
  return shared;
}
