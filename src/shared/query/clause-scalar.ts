/** Leaf normalization for text, number and time clauses. */
import { invalid } from './error.ts';
import type { Cond, NumberOp, TextOp } from './types.ts';
import { isNoValue, readNumber, readText, readTime } from './values.ts';

export function textClause(field: string, op: TextOp, value: unknown, path: string): Cond | null {
  const text = readText(value, path);
  return text === '' ? null : { kind: 'text', field, op, value: text };
}

export function timeClause(field: string, value: unknown, path: string): Cond {
  return { kind: 'time', field, op: 'eq', value: readTime(value, path) };
}

/**
 * Number clauses. between / notbetween take [lo, hi]: reversed ends are swapped, equal ends mean
 * eq / ne, one missing end means gte / lte (between) or lt / gt (notbetween), both missing → dropped.
 */
export function numberClause(field: string, op: string, value: unknown, path: string): Cond | null {
  if (op !== 'between' && op !== 'notbetween') {
    return { kind: 'number', field, op: op as NumberOp, value: readNumber(value, path) };
  }
  if (!Array.isArray(value) || value.length > 2) invalid(path, 'expected [from, to]');
  const [a, b] = [value[0], value[1]].map((v, i) => (isNoValue(v) ? null : readNumber(v, `${path}[${i}]`)));
  const inside = op === 'between';
  if (a == null && b == null) return null;
  if (a == null) return { kind: 'number', field, op: inside ? 'lte' : 'gt', value: b as number };
  if (b == null) return { kind: 'number', field, op: inside ? 'gte' : 'lt', value: a };
  if (a === b) return { kind: 'number', field, op: inside ? 'eq' : 'ne', value: a };
  return { kind: 'number', field, op, value: a < b ? [a, b] : [b, a] };
}
