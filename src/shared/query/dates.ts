/**
 * Date values of the query language. Every date value — a preset, an epoch-ms number or a date
 * string — names whole days in the configured zone, and resolves to a half-open instant range
 * [from, to). Operators then combine ranges (see clause-date.ts).
 */
import { QUERY_LIMITS } from './limits.ts';
import type { DatePreset } from './operators.ts';
import { addDays, addMonths, type Day, dayOf, isoWeekday, startOfDay } from './tz.ts';

export interface Range {
  from: number;
  to: number;
}

/** Local date with an optional local time, or an ISO instant with Z / ±hh:mm. */
const DATE_STRING =
  /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
// Epoch ms sent as text; at least 9 digits, so a bare year like '2024' is never read as 1970.
const EPOCH_STRING = /^-?\d{9,16}$/;

function dayRange(first: Day, lastExclusive: Day, timeZone: string): Range {
  return { from: startOfDay(first, timeZone), to: startOfDay(lastExclusive, timeZone) };
}

function yearOk(y: number): boolean {
  return y >= QUERY_LIMITS.minYear && y <= QUERY_LIMITS.maxYear;
}

/** The day an epoch-ms instant falls on, or undefined when it is out of range. */
function dayOfEpoch(ms: number, timeZone: string): Day | undefined {
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return undefined;
  const day = dayOf(ms, timeZone);
  return yearOk(day.y) ? day : undefined;
}

function dayOfString(s: string, timeZone: string): Day | undefined {
  if (EPOCH_STRING.test(s)) return dayOfEpoch(Number(s), timeZone);
  const m = DATE_STRING.exec(s);
  if (!m) return undefined;
  const day = { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
  const real = addDays(day, 0);
  if (!yearOk(day.y) || real.m !== day.m || real.d !== day.d) return undefined;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59))
    return undefined;
  const zone = m[7];
  if (zone === undefined) return day;
  // Rebuild a strict ISO string: Date.parse is only well defined on that format.
  const two = (v: string | undefined) => (v ?? '0').padStart(2, '0');
  const offset = zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const iso = `${m[1]}-${two(m[2])}-${two(m[3])}T${two(m[4])}:${two(m[5])}:${two(m[6])}${offset}`;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : dayOfEpoch(ms, timeZone);
}

/** The calendar day named by a concrete date value, or undefined if it is not one. */
export function parseDay(v: unknown, timeZone: string): Day | undefined {
  if (typeof v === 'number') return dayOfEpoch(v, timeZone);
  if (typeof v === 'string') return dayOfString(v.trim(), timeZone);
  return undefined;
}

/** Whole days of the day named by `v`. */
export function concreteRange(day: Day, timeZone: string): Range {
  return dayRange(day, addDays(day, 1), timeZone);
}

function quarterStart(day: Day): Day {
  return { y: day.y, m: Math.floor((day.m - 1) / 3) * 3 + 1, d: 1 };
}

/** The range a relative preset names at instant `now` (weeks start on Monday). */
export function presetRange(preset: DatePreset, now: number, timeZone: string): Range {
  const today = dayOf(now, timeZone);
  const days = (a: number, b: number) => dayRange(addDays(today, a), addDays(today, b), timeZone);
  const monday = addDays(today, 1 - isoWeekday(today));
  const weeks = (n: number) => dayRange(addDays(monday, 7 * n), addDays(monday, 7 * n + 7), timeZone);
  const months = (start: Day, n: number, len: number) =>
    dayRange(addMonths(start, n), addMonths(start, n + len), timeZone);
  const jan = { y: today.y, m: 1, d: 1 };
  switch (preset) {
    case 'today':
      return days(0, 1);
    case 'yesterday':
      return days(-1, 0);
    case 'tomorrow':
      return days(1, 2);
    case 'thisWeek':
      return weeks(0);
    case 'lastWeek':
      return weeks(-1);
    case 'nextWeek':
      return weeks(1);
    case 'thisMonth':
      return months(today, 0, 1);
    case 'lastMonth':
      return months(today, -1, 1);
    case 'nextMonth':
      return months(today, 1, 1);
    case 'thisQuarter':
      return months(quarterStart(today), 0, 3);
    case 'lastQuarter':
      return months(quarterStart(today), -3, 3);
    case 'nextQuarter':
      return months(quarterStart(today), 3, 3);
    case 'thisYear':
      return months(jan, 0, 12);
    case 'lastYear':
      return months(jan, -12, 12);
    case 'nextYear':
      return months(jan, 12, 12);
    case 'past7':
      return days(-6, 1);
    case 'past14':
      return days(-13, 1);
    case 'past30':
      return days(-29, 1);
    case 'future7':
      return days(0, 7);
    case 'future14':
      return days(0, 14);
    case 'future30':
      return days(0, 30);
  }
}
