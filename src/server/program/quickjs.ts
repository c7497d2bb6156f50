/**
 * The sandbox of code steps: QuickJS compiled to WebAssembly (quickjs-emscripten), never `node:vm`,
 * in one worker thread per process (code-worker.mjs: one module and one runtime, a fresh context per
 * run). The runtime has a memory limit and a stack limit; an interrupt handler stops a script at its
 * deadline, and a script QuickJS cannot interrupt (a garbage collection thrashing at the memory limit)
 * is ended by terminating the worker a moment later; the next run gets a new one. Scripts get no host
 * functions (no network, files or timers): plain data in, plain data out.
 */
import { Worker } from 'node:worker_threads';

export interface CodeLimits {
  /** Wall time of one script. */
  timeoutMs: number;
  /** Memory of the runtime. */
  memoryBytes: number;
  /** Characters of the JSON the script answers. */
  maxAnswerChars: number;
}

export interface CodeInput {
  params: unknown;
  record: unknown;
  user: unknown;
  state: unknown;
}

export interface CodeAnswer {
  value: unknown;
  /** Variables set with api.setValue. */
  set: Record<string, unknown>;
  /** Notices queued with api.notify (to the user who runs the program). */
  notices: string[];
}

export type CodeFailure = { kind: 'error' | 'timeout' | 'memory' | 'busy'; message: string };
export type CodeResult = { ok: true; answer: CodeAnswer } | { ok: false; failure: CodeFailure };

/** Grace after the deadline before the worker is terminated (QuickJS normally stops on its own). */
const KILL_GRACE_MS = 250;
/** Scripts waiting for the worker before new ones are refused. */
const MAX_WAITING = 256;

interface Pending {
  worker: Worker;
  resolve(v: CodeResult): void;
}

class CodeRunner {
  private worker: Worker | undefined;
  private ready: Promise<void> = Promise.resolve();
  private seq = 0;
  private chain: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private readonly pending = new Map<number, Pending>();
  /** Set by a listening server: a worker ended by a runaway script is replaced in the background. */
  private keepWarm = false;

  private spawn(): Worker {
    const w = new Worker(new URL('./code-worker.mjs', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: 128, stackSizeMb: 4 },
    });
    w.unref();
    let started: () => void = () => {};
    this.ready = new Promise((r) => {
      started = r;
    });
    w.on('message', (m: { id: number; ready?: true; ok: boolean; text?: string; failure?: CodeFailure }) => {
      if (m.ready) {
        started();
        return;
      }
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      p.resolve(
        m.ok
          ? { ok: true, answer: JSON.parse(m.text!) as CodeAnswer }
          : { ok: false, failure: m.failure ?? { kind: 'error', message: 'failed' } },
      );
    });
    const lost = () => {
      if (this.worker === w) this.worker = undefined;
      started();
      if (this.keepWarm) setTimeout(() => void this.warm().catch(() => undefined), 50).unref();
      for (const [id, p] of this.pending) {
        if (p.worker !== w) continue;
        this.pending.delete(id);
        p.resolve({ ok: false, failure: { kind: 'memory', message: 'the sandbox ran out of memory' } });
      }
    };
    w.on('error', lost);
    w.on('exit', lost);
    return w;
  }

  async run(source: string, input: CodeInput, limits: CodeLimits): Promise<CodeResult> {
    if (this.waiting >= MAX_WAITING)
      return { ok: false, failure: { kind: 'busy', message: 'too many code steps waiting' } };
    this.waiting++;
    const turn = this.chain.then(() => this.once(source, input, limits));
    this.chain = turn.catch(() => undefined);
    try {
      return await turn;
    } finally {
      this.waiting--;
    }
  }

  private async once(source: string, input: CodeInput, limits: CodeLimits): Promise<CodeResult> {
    this.worker ??= this.spawn();
    const w = this.worker;
    await this.ready;
    const id = ++this.seq;
    return new Promise<CodeResult>((resolve) => {
      const timer = setTimeout(() => {
        if (!this.pending.has(id)) return;
        this.pending.delete(id);
        resolve({
          ok: false,
          failure: { kind: 'timeout', message: `ran longer than ${limits.timeoutMs} ms` },
        });
        if (this.worker === w) this.worker = undefined;
        void w.terminate();
      }, limits.timeoutMs + KILL_GRACE_MS);
      this.pending.set(id, {
        worker: w,
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
      });
      w.postMessage({ id, source, input, limits });
    });
  }

  /** Starts the worker and loads the WebAssembly module now (else the first code step does). */
  async warm(): Promise<void> {
    this.worker ??= this.spawn();
    await this.ready;
  }

  /**
   * Keep a worker ready from now on: started in the background once the server listens (so the first
   * code step does not pay for the thread and the WebAssembly module), and started again after a
   * runaway script ended one.
   */
  keepReady(): void {
    this.keepWarm = true;
    setTimeout(() => void this.warm().catch(() => undefined), 100).unref();
  }

  async close(): Promise<void> {
    this.keepWarm = false;
    const w = this.worker;
    this.worker = undefined;
    await w?.terminate();
  }
}

/** The process's one code runner. */
export const codeRunner = new CodeRunner();

export function runCode(source: string, input: CodeInput, limits: CodeLimits): Promise<CodeResult> {
  return codeRunner.run(source, input, limits);
}
