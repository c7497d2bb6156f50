/** Defensive readers for untrusted JSON scalars. Each answers a clean value or throws QueryError. */
import { invalid, tooComplex } from './error.ts';
import { QUERY_LIMITS } from './limits.ts';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Own property only: inherited keys (`__proto__`, `constructor`) never count. */
export function own(o: Obj, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

/** "No value": the spec applies a filter only when it has one (or is isnull / notnull). */
export function isNoValue(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what is refused.
export const UNSTORABLE = /\u0000|\p{Cs}/u;

/** A string within the length limit, storable in both databases. */
export function readString(v: unknown, path: string): string {
  if (typeof v !== 'string') invalid(path, 'expected a string');
  if (v.length > QUERY_LIMITS.maxString) tooComplex(path, `string longer than ${QUERY_LIMITS.maxString}`);
  // PostgreSQL text cannot hold NUL, and lone surrogates have no UTF-8 form: refuse both up front.
  if (UNSTORABLE.test(v)) invalid(path, 'string holds a NUL or a lone surrogate');
  return v;
}

/** Refuses over-long strings in a clause value (and in its top-level array) before any parsing. */
export function limitStrings(v: unknown, path: string): void {
  const long = (x: unknown) => typeof x === 'string' && x.length > QUERY_LIMITS.maxString;
  if (long(v)) tooComplex(path, `string longer than ${QUERY_LIMITS.maxString}`);
  if (!Array.isArray(v)) return;
  if (v.length > QUERY_LIMITS.maxSetSize) tooComplex(path, `more than ${QUERY_LIMITS.maxSetSize} items`);
  v.forEach((x, i) => {
    if (long(x)) tooComplex(`${path}[${i}]`, `string longer than ${QUERY_LIMITS.maxString}`);
  });
}

/** Text value: strings as is; finite numbers and booleans as their text (switches store 'true'). */
export function readText(v: unknown, path: string): string {
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) invalid(path, 'number is not finite');
    return String(v);
  }
  return readString(v, path);
}

const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A finite number, or a numeric string of one (form inputs send strings). */
export function readNumber(v: unknown, path: string): number {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && v.length <= 64 && NUMERIC.test(v.trim())) n = Number(v.trim());
  else invalid(path, 'expected a number');
  if (!Number.isFinite(n)) invalid(path, 'number is not finite');
  return n === 0 ? 0 : n; // -0 → 0, so SQL parameters and JS agree
}

const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** A clock time as 'HH:mm:ss' (accepts H:mm and HH:mm). */
export function readTime(v: unknown, path: string): string {
  const m = typeof v === 'string' ? TIME.exec(v.trim()) : null;
  if (!m) invalid(path, "expected a time 'HH:mm:ss'");
  const [h, mi, s] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) invalid(path, 'time out of range');
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(h)}:${two(mi)}:${two(s)}`;
}

/** A list of ids (a single id is a list of one); empty strings dropped, duplicates removed. */
export function readIds(v: unknown, path: string): string[] {
  const list = Array.isArray(v) ? v : [v];
  if (list.length > QUERY_LIMITS.maxSetSize) tooComplex(path, `more than ${QUERY_LIMITS.maxSetSize} ids`);
  const out = new Set<string>();
  list.forEach((item, i) => {
    const id = readString(item, Array.isArray(v) ? `${path}[${i}]` : path);
    if (id !== '') out.add(id);
  });
  return [...out];
}

/** Boolean flags; the spec stores boolean-like options as the text true or false. */
export function readFlag(v: unknown, path: string): boolean {
  if (v === undefined || v === null || v === false || v === 'false' || v === 0) return false;
  if (v === true || v === 'true' || v === 1) return true;
  return invalid(path, 'expected a boolean');
}
