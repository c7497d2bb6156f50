/** Relative presets resolve to whole-day [from, to) ranges at a fixed `now` in the configured zone. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATE_PRESETS, type DatePreset, normalize } from '../../../src/shared/query/index.ts';
import { dayOf, isoWeekday, wallAt } from '../../../src/shared/query/tz.ts';
import { sh } from './fixtures.ts';

type Day = [number, number, number];
type Case = [now: number, preset: DatePreset, from: Day, to: Day];

const FRI = sh(2024, 3, 15, 12);
const cases: Case[] = [
  [FRI, 'today', [2024, 3, 15], [2024, 3, 16]],
  [FRI, 'yesterday', [2024, 3, 14], [2024, 3, 15]],
  [FRI, 'tomorrow', [2024, 3, 16], [2024, 3, 17]],
  [sh(2024, 3, 1, 9), 'yesterday', [2024, 2, 29], [2024, 3, 1]],
  [sh(2024, 12, 31, 9), 'tomorrow', [2025, 1, 1], [2025, 1, 2]],
  // weeks start on Monday
  [FRI, 'thisWeek', [2024, 3, 11], [2024, 3, 18]],
  [FRI, 'lastWeek', [2024, 3, 4], [2024, 3, 11]],
  [FRI, 'nextWeek', [2024, 3, 18], [2024, 3, 25]],
  [sh(2024, 3, 17, 23, 59, 59), 'thisWeek', [2024, 3, 11], [2024, 3, 18]],
  [sh(2024, 3, 18), 'thisWeek', [2024, 3, 18], [2024, 3, 25]],
  [sh(2024, 1, 3), 'lastWeek', [2023, 12, 25], [2024, 1, 1]],
  // Shanghai is UTC+8: 2024-03-17T16:30Z is already Monday 00:30 there
  [Date.UTC(2024, 2, 17, 16, 30), 'today', [2024, 3, 18], [2024, 3, 19]],
  [Date.UTC(2024, 2, 17, 16, 30), 'thisWeek', [2024, 3, 18], [2024, 3, 25]],
  [Date.UTC(2024, 2, 17, 15, 59, 59), 'thisWeek', [2024, 3, 11], [2024, 3, 18]],
  // months
  [sh(2024, 1, 31), 'thisMonth', [2024, 1, 1], [2024, 2, 1]],
  [sh(2024, 1, 31), 'lastMonth', [2023, 12, 1], [2024, 1, 1]],
  [sh(2024, 1, 31), 'nextMonth', [2024, 2, 1], [2024, 3, 1]],
  [sh(2024, 12, 15), 'nextMonth', [2025, 1, 1], [2025, 2, 1]],
  [Date.UTC(2024, 1, 29, 16), 'thisMonth', [2024, 3, 1], [2024, 4, 1]],
  // quarters
  [sh(2024, 3, 31, 23, 59, 59), 'thisQuarter', [2024, 1, 1], [2024, 4, 1]],
  [sh(2024, 3, 31), 'lastQuarter', [2023, 10, 1], [2024, 1, 1]],
  [sh(2024, 3, 31), 'nextQuarter', [2024, 4, 1], [2024, 7, 1]],
  [sh(2024, 4, 1), 'thisQuarter', [2024, 4, 1], [2024, 7, 1]],
  [sh(2024, 12, 31), 'nextQuarter', [2025, 1, 1], [2025, 4, 1]],
  [sh(2024, 8, 20), 'thisQuarter', [2024, 7, 1], [2024, 10, 1]],
  // years, across the Shanghai new year (UTC is still in the old one)
  [sh(2024, 12, 31, 23, 59), 'thisYear', [2024, 1, 1], [2025, 1, 1]],
  [Date.UTC(2024, 11, 31, 16), 'thisYear', [2025, 1, 1], [2026, 1, 1]],
  [Date.UTC(2024, 11, 31, 16), 'lastYear', [2024, 1, 1], [2025, 1, 1]],
  [FRI, 'nextYear', [2025, 1, 1], [2026, 1, 1]],
  // past N days include today; future N days start today
  [FRI, 'past7', [2024, 3, 9], [2024, 3, 16]],
  [FRI, 'past14', [2024, 3, 2], [2024, 3, 16]],
  [FRI, 'past30', [2024, 2, 15], [2024, 3, 16]],
  [FRI, 'future7', [2024, 3, 15], [2024, 3, 22]],
  [FRI, 'future14', [2024, 3, 15], [2024, 3, 29]],
  [FRI, 'future30', [2024, 3, 15], [2024, 4, 14]],
];

function range(preset: string, now: number, timeZone?: string) {
  const r = normalize(
    { query: [{ field: 'at', type: 'date', opt: 'eq', value: preset }] },
    timeZone ? { now, timeZone } : { now },
  );
  if (!r.ok) throw r.error;
  return r.query.where;
}

describe('relative presets (Asia/Shanghai)', () => {
  it.each(cases)('now=%d %s', (now, preset, from, to) => {
    expect(range(preset, now)).toEqual({
      kind: 'date',
      field: 'at',
      op: 'in',
      from: sh(...from),
      to: sh(...to),
    });
  });

  it('covers every preset', () => {
    expect(new Set(cases.map((c) => c[1]))).toEqual(new Set(DATE_PRESETS));
  });
});

describe('other zones', () => {
  it('uses the configured zone (UTC)', () => {
    expect(range('today', Date.UTC(2024, 2, 15, 23), 'UTC')).toMatchObject({
      from: Date.UTC(2024, 2, 15),
      to: Date.UTC(2024, 2, 16),
    });
  });

  it('keeps calendar days across a DST change (New York, 23-hour day)', () => {
    const r = range('today', Date.UTC(2024, 2, 10, 12), 'America/New_York');
    expect(r).toMatchObject({ from: Date.UTC(2024, 2, 10, 5), to: Date.UTC(2024, 2, 11, 4) });
  });

  it('starts a day that begins in a DST gap at the transition (Santiago)', () => {
    // 2024-09-08 00:00 does not exist in America/Santiago: clocks jump from 00:00 (-04) to 01:00 (-03).
    const r = range('today', Date.UTC(2024, 8, 8, 15), 'America/Santiago');
    expect(r).toMatchObject({ from: Date.UTC(2024, 8, 8, 4), to: Date.UTC(2024, 8, 9, 3) });
  });

  it('refuses an unknown zone', () => {
    const r = normalize({}, { now: 0, timeZone: 'Mars/Olympus' });
    expect(r.ok).toBe(false);
  });
});

describe('preset invariants over random instants', () => {
  const ZONES = [
    'Asia/Shanghai',
    'UTC',
    'America/New_York',
    'Europe/London',
    'Australia/Sydney',
    'America/Santiago',
  ];
  const nowArb = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 0, 1) });

  it('ranges start at local midnight (or a DST transition) and contain what they should', () => {
    fc.assert(
      fc.property(
        nowArb,
        fc.constantFrom(...ZONES),
        fc.constantFrom(...DATE_PRESETS),
        (now, zone, preset) => {
          const r = range(preset, now, zone) as { from: number; to: number };
          expect(r.from).toBeLessThan(r.to);
          for (const edge of [r.from, r.to]) {
            const w = wallAt(edge, zone);
            expect(w.h * 3600 + w.mi * 60 + w.s).toBeLessThanOrEqual(3600); // 00:00, or 01:00 after a gap
            expect(wallAt(edge - 1000, zone).d).not.toBe(w.d);
          }
          if (['today', 'thisWeek', 'thisMonth', 'thisQuarter', 'thisYear'].includes(preset)) {
            expect(now >= r.from && now < r.to).toBe(true);
          }
          if (preset === 'thisWeek') expect(isoWeekday(dayOf(r.from, zone))).toBe(1);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('Shanghai days are exactly 24 hours (China has had no DST since 1991)', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1992, 0, 1), max: Date.UTC(2060, 0, 1) }), (now) => {
        const r = range('past30', now) as { from: number; to: number };
        expect(r.to - r.from).toBe(30 * 86_400_000);
      }),
    );
  });
});
