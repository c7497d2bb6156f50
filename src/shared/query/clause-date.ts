/**
 * Date clauses. Each value (preset or concrete date) names whole days [from, to) in the zone:
 * eq → inside, ne → outside (non-null), lt → before the first day, gt → after the last day,
 * between [a, b] → from the first day of either to the end of the last day of either (so reversed
 * ends are swapped); a missing end leaves that side open; both missing → dropped.
 */
import { concreteRange, parseDay, presetRange, type Range } from './dates.ts';
import { invalid } from './error.ts';
import { isDatePreset } from './operators.ts';
import type { Cond } from './types.ts';
import { isNoValue } from './values.ts';

export interface DateCtx {
  now: number;
  timeZone: string;
}

function rangeOf(v: unknown, path: string, ctx: DateCtx): Range {
  if (isDatePreset(v)) return presetRange(v, ctx.now, ctx.timeZone);
  const day = parseDay(v, ctx.timeZone);
  if (!day) invalid(path, 'expected a date (epoch ms, YYYY-MM-DD) or a relative preset');
  return concreteRange(day, ctx.timeZone);
}

export function dateClause(
  field: string,
  op: string,
  value: unknown,
  path: string,
  ctx: DateCtx,
): Cond | null {
  const date = (from: number | null, to: number | null, out = false): Cond => ({
    kind: 'date',
    field,
    op: out ? 'out' : 'in',
    from,
    to,
  });
  if (op === 'between') {
    if (!Array.isArray(value) || value.length > 2) invalid(path, 'expected [from, to]');
    const [a, b] = [value[0], value[1]].map((v, i) =>
      isNoValue(v) ? null : rangeOf(v, `${path}[${i}]`, ctx),
    );
    if (!a && !b) return null;
    if (!a) return date(null, b!.to);
    if (!b) return date(a.from, null);
    return date(Math.min(a.from, b.from), Math.max(a.to, b.to));
  }
  const r = rangeOf(value, path, ctx);
  switch (op) {
    case 'eq':
      return date(r.from, r.to);
    case 'ne':
      return date(r.from, r.to, true);
    case 'lt':
      return date(null, r.from);
    default:
      return date(r.to, null);
  }
}
