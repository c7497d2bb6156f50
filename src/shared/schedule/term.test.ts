import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { beijingText, checkCron, nextFires } from './cron.ts';
import {
  DEFAULT_TERM,
  decodeCron,
  encodeTerm,
  type ScheduleTerm,
  TERMS,
  termProblem,
  WEEK_DAYS,
} from './term.ts';

const pad = (n: number) => String(n).padStart(2, '0');
const time = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${pad(h)}:${pad(m)}`);
const weekDay = fc.constantFrom(...WEEK_DAYS);
const term: fc.Arbitrary<ScheduleTerm> = fc.record({
  time,
  term: fc.constantFrom(...TERMS),
  weekDay: fc.uniqueArray(weekDay, { minLength: 1, maxLength: 7 }),
  monthWeek: fc.integer({ min: 1, max: 5 }),
  monthWeekDay: weekDay,
  monthDate: fc.array(fc.integer({ min: 1, max: 31 }), { minLength: 1, maxLength: 10 }),
  yearDateDay: fc
    .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
    .map(([m, d]) => `${pad(m)}-${pad(d)}`),
  dateDay: fc
    .tuple(
      fc.integer({ min: 2027, max: 2099 }),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 28 }),
    )
    .map(([y, m, d]) => `${y}-${pad(m)}-${pad(d)}`),
});

describe('schedule term ↔ cron', () => {
  it('encode → decode → encode is stable for every form, and decode gives the term back', () => {
    fc.assert(
      fc.property(term, (t) => {
        const cron = encodeTerm(t);
        const back = decodeCron(cron);
        expect(back).not.toBeNull();
        expect(back!.term).toBe(t.term);
        expect(back!.time).toBe(t.time);
        expect(encodeTerm(back!)).toBe(cron);
        expect(checkCron(cron, Date.UTC(2026, 0, 1)).ok).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("decodes the spec's forms to the spec's terms", () => {
    const cases: [string, Partial<ScheduleTerm> | null][] = [
      ['0 30 8 * * ? *', { term: 'day', time: '08:30' }],
      ['0 0 0 * * ?', { term: 'day', time: '00:00' }],
      ['0 0 9 ? * MON#2 *', { term: 'month_week_day', monthWeekDay: 'MON', monthWeek: 2, time: '09:00' }],
      ['0 0 9 ? * 6#5 *', { term: 'month_week_day', monthWeekDay: 'FRI', monthWeek: 5 }],
      ['0 15 18 ? * WED,MON *', { term: 'week_day', weekDay: ['MON', 'WED'], time: '18:15' }],
      ['0 15 18 ? * 1,7 *', { term: 'week_day', weekDay: ['SAT', 'SUN'] }],
      ['0 0 9 1,15,L * ? *', { term: 'month_date', monthDate: [1, 15] }],
      ['0 0 9 L,3 * ? *', { term: 'month_date', monthDate: [3] }],
      ['0 0 9 25 12 ? *', { term: 'year_date_day', yearDateDay: '12-25' }],
      ['0 5 23 1 2 ? 2030', { term: 'date_day', dateDay: '2030-02-01', time: '23:05' }],
      // Not one of the forms: the form keeps the cron as written.
      ['*/3 * * * * ? *', null],
      ['0 0/5 * * * ? *', null],
      ['0 0 9 L * ? *', null],
      ['0 0 9 ? * FOO *', null],
      ['nonsense', null],
    ];
    for (const [cron, want] of cases) {
      const got = decodeCron(cron);
      if (want === null) expect(got, cron).toBeNull();
      else expect(got, cron).toMatchObject(want);
    }
  });

  it('refuses terms that cannot be encoded', () => {
    expect(termProblem({ ...DEFAULT_TERM, time: '24:00' })).toBeTruthy();
    expect(termProblem({ ...DEFAULT_TERM, term: 'week_day', weekDay: [] })).toBeTruthy();
    expect(termProblem({ ...DEFAULT_TERM, term: 'month_date', monthDate: [32] })).toBeTruthy();
    expect(termProblem({ ...DEFAULT_TERM, term: 'month_week_day', monthWeek: 6 })).toBeTruthy();
    expect(termProblem({ ...DEFAULT_TERM, term: 'year_date_day', yearDateDay: '13-01' })).toBeTruthy();
    expect(termProblem({ ...DEFAULT_TERM, term: 'date_day', dateDay: '2030-1-1' })).toBeTruthy();
    expect(() => encodeTerm({ ...DEFAULT_TERM, time: 'x' })).toThrow();
    expect(encodeTerm(DEFAULT_TERM)).toBe('0 0 0 * * ? *');
  });
});

describe('cron timing (Beijing time, Quartz weekdays)', () => {
  const from = Date.UTC(2026, 10, 27, 0, 0, 0); // 2026-11-27 08:00 Beijing, a Friday
  it('fires at Beijing wall-clock times whatever the TZ of the process', () => {
    const [a] = nextFires('0 30 8 * * ? *', 1, from);
    expect(beijingText(a!)).toBe('2026-11-27 08:30:00');
    expect(new Date(a!).toISOString()).toBe('2026-11-27T00:30:00.000Z');
  });
  it('reads weekday names and Quartz numbers (1 = Sunday) the same way', () => {
    const byName = nextFires('0 0 9 ? * SUN *', 3, from);
    expect(nextFires('0 0 9 ? * 1 *', 3, from)).toEqual(byName);
    expect(new Date(byName[0]! + 8 * 3600_000).getUTCDay()).toBe(0);
    expect(beijingText(nextFires('0 0 9 ? * MON#2 *', 1, from)[0]!)).toBe('2026-12-14 09:00:00');
  });
  it('tells a cron that does not parse from one that never fires', () => {
    expect(checkCron('bad', from)).toMatchObject({ ok: false, why: 'parse' });
    expect(checkCron('0 0 25 * * ? *', from)).toMatchObject({ ok: false, why: 'parse' });
    expect(checkCron('0 0 0 30 2 ? *', from)).toMatchObject({ ok: false, why: 'never' });
    expect(checkCron('0 0 0 1 1 ? 2020', from)).toMatchObject({ ok: false, why: 'never' });
    expect(checkCron('0 0 0 * * ?', from)).toMatchObject({ ok: true, cron: '0 0 0 * * ? *' });
    expect(checkCron('x'.repeat(500), from)).toMatchObject({ ok: false, why: 'parse' });
  });
});
