/**
 * The schedule form's terms and the 7-field Quartz cron (seconds minute hour day-of-month month
 * day-of-week year) they stand for. Pure and isomorphic: the screen and the server encode the same way.
 */

export const TERMS = [
  'day',
  'week_day',
  'month_date',
  'month_week_day',
  'year_date_day',
  'date_day',
] as const;
export type Term = (typeof TERMS)[number];

/** Quartz weekday names; Quartz numbers them 1 = SUN … 7 = SAT (croner counts 0 = Sunday: names avoid the trap). */
export const WEEK_DAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];
const QUARTZ_NUMBER: Record<string, WeekDay> = {
  '1': 'SUN',
  '2': 'MON',
  '3': 'TUE',
  '4': 'WED',
  '5': 'THU',
  '6': 'FRI',
  '7': 'SAT',
};

/** The spec's schedule form (cron, flow and id live beside it on the task). */
export interface ScheduleTerm {
  /** HH:mm, Beijing time. */
  time: string;
  term: Term;
  /** week_day: the days, MON..SUN. */
  weekDay: WeekDay[];
  /** month_week_day: the n-th (1–5) monthWeekDay of the month. */
  monthWeek: number;
  monthWeekDay: WeekDay;
  /** month_date: days of the month, 1–31. */
  monthDate: number[];
  /** year_date_day: MM-DD every year. */
  yearDateDay: string;
  /** date_day: one day, YYYY-MM-DD. */
  dateDay: string;
}

export const DEFAULT_TERM: ScheduleTerm = {
  time: '00:00',
  term: 'day',
  weekDay: [],
  monthWeek: 1,
  monthWeekDay: 'MON',
  monthDate: [],
  yearDateDay: '01-01',
  dateDay: '',
};

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const MONTH_DAY = /^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DATE = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const INT = /^\d{1,4}$/;

const pad = (n: number) => String(n).padStart(2, '0');
const weekOrder = (days: readonly WeekDay[]) => WEEK_DAYS.filter((d) => days.includes(d));

/** Why a term cannot be encoded (null when it can). */
export function termProblem(t: ScheduleTerm): string | null {
  if (!TIME.test(t.time)) return 'time must be HH:mm';
  switch (t.term) {
    case 'day':
      return null;
    case 'week_day':
      if (!t.weekDay.length) return 'choose at least one weekday';
      return t.weekDay.every((d) => WEEK_DAYS.includes(d)) ? null : 'weekday must be MON..SUN';
    case 'month_date':
      if (!t.monthDate.length) return 'choose at least one day of the month';
      return t.monthDate.every((d) => Number.isInteger(d) && d >= 1 && d <= 31)
        ? null
        : 'days of the month are 1 to 31';
    case 'month_week_day':
      if (!(Number.isInteger(t.monthWeek) && t.monthWeek >= 1 && t.monthWeek <= 5))
        return 'the week of the month is 1 to 5';
      return WEEK_DAYS.includes(t.monthWeekDay) ? null : 'weekday must be MON..SUN';
    case 'year_date_day':
      return MONTH_DAY.test(t.yearDateDay) ? null : 'the day of the year is MM-DD';
    case 'date_day':
      return DATE.test(t.dateDay) ? null : 'the date is YYYY-MM-DD';
    default:
      return 'unknown term';
  }
}

/** The cron a term stands for; throws on a term `termProblem` refuses. */
export function encodeTerm(t: ScheduleTerm): string {
  const problem = termProblem(t);
  if (problem) throw new Error(problem);
  const [hh, mm] = t.time.split(':').map(Number) as [number, number];
  const at = `0 ${mm} ${hh}`;
  switch (t.term) {
    case 'day':
      return `${at} * * ? *`;
    case 'week_day':
      return `${at} ? * ${weekOrder(t.weekDay).join(',')} *`;
    case 'month_date':
      return `${at} ${[...new Set(t.monthDate)].sort((a, b) => a - b).join(',')} * ? *`;
    case 'month_week_day':
      return `${at} ? * ${t.monthWeekDay}#${t.monthWeek} *`;
    case 'year_date_day': {
      const [m, d] = t.yearDateDay.split('-').map(Number) as [number, number];
      return `${at} ${d} ${m} ? *`;
    }
    case 'date_day': {
      const [y, m, d] = t.dateDay.split('-').map(Number) as [number, number, number];
      return `${at} ${d} ${m} ? ${y}`;
    }
  }
}

function weekDayOf(s: string): WeekDay | null {
  const u = s.toUpperCase();
  if ((WEEK_DAYS as readonly string[]).includes(u)) return u as WeekDay;
  return QUARTZ_NUMBER[u] ?? null;
}

function intIn(s: string, min: number, max: number): number | null {
  if (!INT.test(s)) return null;
  const n = Number(s);
  return n >= min && n <= max ? n : null;
}

const anyYear = (y: string | undefined) => y === undefined || y === '*' || y === '?';

/**
 * The term a cron stands for, by the spec's rules: day-of-week `?` with day-of-month `*` is day;
 * `?` with a `#` in the week part is month_week_day; weekday names are week_day; a day list with
 * month `*` is month_date (an `L` in it is dropped); a day and a month are year_date_day (with a year,
 * date_day). Null when the cron is none of the forms (seconds other than 0, ranges, steps …): the
 * form then keeps the cron as written.
 */
export function decodeCron(cron: string): ScheduleTerm | null {
  const f = cron.trim().split(/\s+/);
  if (f.length !== 6 && f.length !== 7) return null;
  const [sec, min, hour, dom, month, dow, year] = f as [
    string,
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  if (intIn(sec, 0, 0) === null) return null;
  const mm = intIn(min, 0, 59);
  const hh = intIn(hour, 0, 23);
  if (mm === null || hh === null) return null;
  const base: ScheduleTerm = { ...DEFAULT_TERM, weekDay: [], monthDate: [], time: `${pad(hh)}:${pad(mm)}` };

  if (dow === '?' && dom === '*' && month === '*' && anyYear(year)) return { ...base, term: 'day' };
  if (dom === '?' && month === '*' && anyYear(year)) {
    const nth = /^([A-Za-z]{3}|[1-7])#([1-5])$/.exec(dow);
    if (nth) {
      const day = weekDayOf(nth[1]!);
      return day ? { ...base, term: 'month_week_day', monthWeekDay: day, monthWeek: Number(nth[2]) } : null;
    }
    const days = dow.split(',').map(weekDayOf);
    if (days.some((d) => d === null)) return null;
    return { ...base, term: 'week_day', weekDay: weekOrder(days as WeekDay[]) };
  }
  if (dow !== '?') return null;
  if (month === '*' && anyYear(year)) {
    const parts = dom.split(',').filter((p) => p.toUpperCase() !== 'L');
    const days = parts.map((p) => intIn(p, 1, 31));
    if (!days.length || days.some((d) => d === null)) return null;
    return { ...base, term: 'month_date', monthDate: [...new Set(days as number[])].sort((a, b) => a - b) };
  }
  const d = intIn(dom, 1, 31);
  const m = intIn(month, 1, 12);
  if (d === null || m === null) return null;
  if (anyYear(year)) return { ...base, term: 'year_date_day', yearDateDay: `${pad(m)}-${pad(d)}` };
  const y = intIn(year!, 1970, 2099);
  if (y === null) return null;
  return { ...base, term: 'date_day', dateDay: `${y}-${pad(m)}-${pad(d)}` };
}
