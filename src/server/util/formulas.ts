/**
 * Spreadsheet formulas for `POST /api/app/util/{project}/sheet/parse {formula, value, option}`,
 * evaluated by fast-formula-parser (MIT; a real parser and Excel's function set, never `eval`) in one
 * worker thread with a small heap. Calls run one at a time; one that outlives FORMULA_TIMEOUT_MS or
 * outgrows the heap is answered FORMULA_TOO_HEAVY and its worker replaced.
 */
import { Worker } from 'node:worker_threads';
import { AppError, E, fail } from '../errors.ts';

export const FORMULA_MAX_CHARS = 4096;
export const FORMULA_TIMEOUT_MS = 2000;
/** Calls waiting for the worker before new ones are refused (1005). */
const MAX_WAITING = 64;

export type Cell = string | number | boolean | null;

export interface FormulaInput {
  formula: string;
  /** Cells by position (`value[0][0]` is A1) … */
  value?: Cell[][];
  /** … or by reference (`{A1: 1, B2: 'x'}`), which also serves named values (`{rate: 0.1}`). */
  named?: Record<string, Cell>;
  /** Round a numeric result to this many decimals. */
  precision?: number;
}

interface Pending {
  worker: Worker;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

export class FormulaRunner {
  private worker: Worker | undefined;
  /** Resolves when the current worker has loaded the parser (its start is not the formula's time). */
  private ready: Promise<void> = Promise.resolve();
  private seq = 0;
  private chain: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private readonly pending = new Map<number, Pending>();

  private spawn(): Worker {
    const w = new Worker(new URL('./formula-worker.mjs', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    w.unref();
    let started: () => void = () => {};
    this.ready = new Promise((r) => {
      started = r;
    });
    w.on(
      'message',
      (m: { id: number; ok: boolean; result?: unknown; kind?: string; detail?: string; ready?: true }) => {
        if (m.ready) {
          started();
          return;
        }
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.ok) p.resolve(m.result);
        else p.reject(new AppError(m.kind === 'heavy' ? E.FORMULA_TOO_HEAVY : E.FORMULA_INVALID, m.detail));
      },
    );
    const lost = () => {
      if (this.worker === w) this.worker = undefined;
      for (const [id, p] of this.pending) {
        if (p.worker !== w) continue;
        this.pending.delete(id);
        p.reject(new AppError(E.FORMULA_TOO_HEAVY, 'the formula needed too much memory'));
      }
    };
    w.on('error', lost);
    w.on('exit', () => {
      started();
      lost();
    });
    return w;
  }

  /** The formula's result: a value, a spreadsheet error text (`#DIV/0!`), or a 2-D array. */
  async run(input: FormulaInput): Promise<unknown> {
    if (input.formula.length > FORMULA_MAX_CHARS)
      fail(E.FORMULA_INVALID, `at most ${FORMULA_MAX_CHARS} characters`);
    if (this.waiting >= MAX_WAITING) fail(E.RATE_LIMITED, 'too many formulas waiting');
    this.waiting++;
    const turn = this.chain.then(() => this.once(input));
    this.chain = turn.catch(() => undefined);
    try {
      const result = await turn;
      if (typeof result === 'number' && input.precision !== undefined) {
        const f = 10 ** input.precision;
        return Math.round(result * f) / f;
      }
      return result;
    } finally {
      this.waiting--;
    }
  }

  private async once(input: FormulaInput): Promise<unknown> {
    this.worker ??= this.spawn();
    const w = this.worker;
    await this.ready;
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (!this.pending.has(id)) return;
        this.pending.delete(id);
        reject(new AppError(E.FORMULA_TOO_HEAVY, `no result within ${FORMULA_TIMEOUT_MS} ms`));
        if (this.worker === w) this.worker = undefined;
        void w.terminate();
      }, FORMULA_TIMEOUT_MS);
      this.pending.set(id, {
        worker: w,
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      w.postMessage({ id, formula: input.formula, value: input.value, named: input.named });
    });
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
  }
}
