/** Schedules keep Beijing time whatever the process's TZ: the same fires under three zones. */
import { afterAll, describe, expect, it } from 'vitest';
import { beijingText, checkCron, nextFires } from '../../src/shared/schedule/index.ts';

const saved = process.env.TZ;
afterAll(() => {
  if (saved === undefined) delete process.env.TZ;
  else process.env.TZ = saved;
});

describe.each(['UTC', 'America/Los_Angeles', 'Asia/Kolkata'])('with TZ=%s', (zone) => {
  it('fires at the same instants, on Beijing wall-clock times', () => {
    process.env.TZ = zone;
    // The zone took effect (in January LA is UTC-8, Kolkata UTC+5:30).
    const offset = new Date(Date.UTC(2027, 0, 1)).getTimezoneOffset();
    expect(offset).toBe({ UTC: 0, 'America/Los_Angeles': 480, 'Asia/Kolkata': -330 }[zone]);
    const from = Date.UTC(2027, 0, 1, 0, 0, 0);
    const daily = nextFires('0 30 8 * * ? *', 3, from);
    expect(daily.map((t) => new Date(t).toISOString())).toEqual([
      '2027-01-01T00:30:00.000Z',
      '2027-01-02T00:30:00.000Z',
      '2027-01-03T00:30:00.000Z',
    ]);
    // The second Monday of January 2027 in Beijing is the 11th; 00:15 there is the 10th in UTC.
    const [nth] = nextFires('0 15 0 ? * MON#2 *', 1, from);
    expect(beijingText(nth!)).toBe('2027-01-11 00:15:00');
    expect(new Date(nth!).toISOString()).toBe('2027-01-10T16:15:00.000Z');
    expect(checkCron('0 0 9 25 12 ? *', from)).toMatchObject({ ok: true, next: Date.UTC(2027, 11, 25, 1) });
  });
});
