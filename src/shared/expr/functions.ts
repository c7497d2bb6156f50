/** The whitelisted functions of the expression language. `if` is special-cased (lazy) in the interpreter. */
import { ACCURACY_DEFAULT } from '../constants.ts';
import { ExprError } from './errors.ts';

type Fn = (args: unknown[]) => unknown;

function num(v: unknown, name: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  throw new ExprError('type', `${name}: expected a number`);
}

function str(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new ExprError('type', 'expected text');
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
// Beijing time has had no daylight saving since 1991, so a fixed offset is exact.
const SHANGHAI_OFFSET_MS = 8 * 3600_000;

/** Formats a date (ms, ISO text or Date) in Beijing time with yyyy MM dd HH mm ss tokens. */
export function fmtDate(value: unknown, format = 'yyyy-MM-dd'): string {
  const ms =
    value instanceof Date
      ? value.getTime()
      : typeof value === 'number'
        ? value
        : typeof value === 'string'
          ? Date.parse(value)
          : Number.NaN;
  if (!Number.isFinite(ms)) return '';
  const d = new Date(ms + SHANGHAI_OFFSET_MS);
  const parts: Record<string, string> = {
    yyyy: String(d.getUTCFullYear()),
    MM: pad(d.getUTCMonth() + 1),
    dd: pad(d.getUTCDate()),
    HH: pad(d.getUTCHours()),
    mm: pad(d.getUTCMinutes()),
    ss: pad(d.getUTCSeconds()),
  };
  return format.replace(/yyyy|MM|dd|HH|mm|ss/g, (k) => parts[k]!);
}

export const FUNCTIONS: Record<string, Fn> = {
  len: ([v]) => (typeof v === 'string' || Array.isArray(v) ? v.length : 0),
  upper: ([v]) => str(v).toUpperCase(),
  lower: ([v]) => str(v).toLowerCase(),
  round: ([v, digits]) => {
    const d =
      digits === undefined ? ACCURACY_DEFAULT : Math.max(0, Math.min(10, Math.trunc(num(digits, 'round'))));
    const f = 10 ** d;
    return Math.round(num(v, 'round') * f) / f;
  },
  fmtDate: ([v, f]) => fmtDate(v, f === undefined ? undefined : str(f)),
  /** One field of each object in a list (`sum(pluck(widgets.cart.rows, 'amount'))`); others give null. */
  pluck: ([list, key]) => {
    if (!Array.isArray(list)) return [];
    const k = str(key);
    return list.map((x) =>
      x && typeof x === 'object' && Object.hasOwn(x, k) ? (x as Record<string, unknown>)[k] : null,
    );
  },
  sum: (args) => {
    const list = args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
    let s = 0;
    for (const x of list) s += num(x, 'sum');
    return s;
  },
};

export const FUNCTION_NAMES = [...Object.keys(FUNCTIONS), 'if'];
