import { describe, expect, it } from 'vitest';
import { axisRange, axisTicks, dayOf, dayText, dragDates, type GanttTask, ganttTasks } from './gantt.ts';

describe('gantt arithmetic', () => {
  it('reads stored dates as days of the project zone and writes them back as the same day', () => {
    // 2026-03-02 00:00 in Shanghai is 2026-03-01 16:00 UTC.
    const ms = Date.parse('2026-03-01T16:00:00Z');
    const day = dayOf(ms);
    expect(day).not.toBeNull();
    expect(dayText(day as number)).toBe('2026-03-02');
    expect(dayOf('2026-03-02')).toBe(day);
    expect(dayOf('')).toBeNull();
    expect(dayOf('not a date')).toBeNull();
  });

  it('builds tasks: no start, no bar; an end before the start is the start; deps from a collection', () => {
    const rows = [
      { _id: 'a', t: 'A', s: '2026-03-02', e: '2026-03-05', p: 150, d: [] },
      { _id: 'b', t: 'B', s: '2026-03-06', e: '2026-03-01', p: 'x', d: ['a', { _id: 'c' }] },
      { _id: 'c', t: 'C', s: null, e: '2026-03-01' },
    ];
    const tasks = ganttTasks(rows, { title: 't', start: 's', end: 'e', progress: 'p', deps: 'd' }, (r) =>
      String(r.t),
    );
    expect(tasks.map((t) => t.id)).toEqual(['a', 'b']);
    const [a, b] = tasks as [GanttTask, GanttTask];
    expect(a.end - a.start).toBe(3);
    expect(a.progress).toBe(100);
    expect(b.end).toBe(b.start);
    expect(b.progress).toBe(0);
    expect(b.deps).toEqual(['a', 'c']);
  });

  it('moves and resizes, keeping at least one day', () => {
    expect(dragDates({ start: 10, end: 12 }, 'move', 3)).toEqual({ start: 13, end: 15 });
    expect(dragDates({ start: 10, end: 12 }, 'end', -5)).toEqual({ start: 10, end: 10 });
    expect(dragDates({ start: 10, end: 12 }, 'start', 5)).toEqual({ start: 12, end: 12 });
    expect(dragDates({ start: 10, end: 12 }, 'start', -2)).toEqual({ start: 8, end: 12 });
  });

  it('aligns the axis to Mondays and months', () => {
    const day = dayOf('2026-03-04') as number;
    const week = axisRange([{ start: day, end: day + 3 }], 'week', day);
    expect(new Date(week.from * 86_400_000).getUTCDay()).toBe(1);
    const month = axisRange([{ start: day, end: day }], 'month', day);
    expect(dayText(month.from).endsWith('-01')).toBe(true);
    expect(
      axisTicks(week.from, week.to, 'week').every((t) => new Date(t.day * 86_400_000).getUTCDay() === 1),
    ).toBe(true);
  });
});
