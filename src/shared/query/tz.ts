/**
 * Wall-clock ⇄ instant conversion in an IANA zone using only Intl.DateTimeFormat.
 * Calendar days are plain {y, m, d} (m 1-12); arithmetic on them goes through a UTC Date, which
 * has no DST, so "add n days" is always calendar days.
 */

export interface Day {
  y: number;
  m: number;
  d: number;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when the runtime knows the zone. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

interface Wall extends Day {
  h: number;
  mi: number;
  s: number;
}

/** The wall clock in `timeZone` at instant `ms` (whole seconds). */
export function wallAt(ms: number, timeZone: string): Wall {
  const parts = formatter(timeZone).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const bc = parts.find((p) => p.type === 'era')?.value === 'BC';
  const y = bc ? 1 - get('year') : get('year');
  return { y, m: get('month'), d: get('day'), h: get('hour') % 24, mi: get('minute'), s: get('second') };
}

/** UTC epoch ms of a wall clock read as if it were UTC (years below 100 kept literal). */
function utcOf(w: Wall): number {
  const t = new Date(Date.UTC(2000, w.m - 1, w.d, w.h, w.mi, w.s));
  t.setUTCFullYear(w.y, w.m - 1, w.d);
  return t.getTime();
}

/** Offset of `timeZone` from UTC at instant `ms`, in ms (Asia/Shanghai: +8 h). */
export function offsetAt(ms: number, timeZone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return utcOf(wallAt(whole, timeZone)) - whole;
}

/**
 * The instant at which `timeZone` shows the wall clock `w`. Offsets a day either side give the
 * candidates: a repeated clock time takes the earlier instant; a clock time skipped by a DST gap
 * takes the instant the gap ends (so a day that starts in a gap starts at the transition).
 */
export function instantOf(w: Wall, timeZone: string): number {
  const local = utcOf(w);
  const a = local - offsetAt(local - DAY_MS, timeZone);
  const b = local - offsetAt(local + DAY_MS, timeZone);
  const valid = [a, b].filter((c) => utcOf(wallAt(c, timeZone)) === local);
  return valid.length > 0 ? Math.min(...valid) : Math.max(a, b);
}

/** Normalizes an overflowing calendar day (d = 0, m = 13 …) to a real one. */
export function addDays(day: Day, n: number): Day {
  const t = new Date(Date.UTC(2000, 0, 1));
  t.setUTCFullYear(day.y, day.m - 1, day.d + n);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/** First day of the month `n` months after day's month. */
export function addMonths(day: Day, n: number): Day {
  const t = new Date(Date.UTC(2000, 0, 1));
  t.setUTCFullYear(day.y, day.m - 1 + n, 1);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: 1 };
}

/** ISO weekday: Monday 1 … Sunday 7. */
export function isoWeekday(day: Day): number {
  const t = new Date(Date.UTC(2000, 0, 1));
  t.setUTCFullYear(day.y, day.m - 1, day.d);
  return ((t.getUTCDay() + 6) % 7) + 1;
}

/** Instant of 00:00:00 on `day` in `timeZone`. */
export function startOfDay(day: Day, timeZone: string): number {
  return instantOf({ ...day, h: 0, mi: 0, s: 0 }, timeZone);
}

/** The calendar day containing instant `ms` in `timeZone`. */
export function dayOf(ms: number, timeZone: string): Day {
  const { y, m, d } = wallAt(ms, timeZone);
  return { y, m, d };
}
