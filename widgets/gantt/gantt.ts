/**
 * The gantt chart's arithmetic: tasks from rows (days in the project's zone), the time axis of a zoom,
 * and the dates a drag or a key press gives a task. Days are whole numbers (days since 1970-01-01), so
 * moving a bar never shifts it by a time zone.
 */
import { dateText } from '../kit/table-columns.ts';

export type Zoom = 'day' | 'week' | 'month';
export type DragMode = 'move' | 'start' | 'end';

export interface GanttTask {
  id: string;
  title: string;
  /** First and last day (inclusive), as day numbers. */
  start: number;
  end: number;
  progress: number;
  deps: string[];
  row: Record<string, unknown>;
}

const DAY = 86_400_000;

/** Pixels a day takes at each zoom. */
export const DAY_PX: Record<Zoom, number> = { day: 36, week: 14, month: 4 };

/** The day number of a stored date (epoch ms or date text) in the project's zone; null when none. */
export function dayOf(v: unknown): number | null {
  const text = dateText(v, 'date');
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  return Math.round(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / DAY);
}

/** YYYY-MM-DD of a day number (what the data API stores as that day in the project's zone). */
export function dayText(day: number): string {
  return new Date(day * DAY).toISOString().slice(0, 10);
}

function ids(v: unknown): string[] {
  if (typeof v === 'string' && v) return [v];
  if (!Array.isArray(v)) return [];
  return v
    .map((x) =>
      typeof x === 'string' ? x : x && typeof x === 'object' ? (x as { _id?: unknown })._id : null,
    )
    .filter((x): x is string => typeof x === 'string' && x !== '');
}

/** Tasks of the rows that have a start day; a missing or earlier end is the start day. */
export function ganttTasks(
  rows: readonly Record<string, unknown>[],
  f: { title: string; start: string; end: string; progress: string; deps: string },
  titleOf: (row: Record<string, unknown>) => string,
): GanttTask[] {
  const out: GanttTask[] = [];
  for (const row of rows) {
    const start = dayOf(row[f.start]);
    if (start === null) continue;
    const endDay = f.end ? dayOf(row[f.end]) : null;
    const p = f.progress ? Number(row[f.progress]) : 0;
    out.push({
      id: String(row._id ?? ''),
      title: titleOf(row),
      start,
      end: endDay === null || endDay < start ? start : endDay,
      progress: Number.isFinite(p) ? Math.max(0, Math.min(100, p)) : 0,
      deps: f.deps ? ids(row[f.deps]) : [],
      row,
    });
  }
  return out;
}

/** The new first and last day of a task dragged by `delta` days (a bar keeps at least one day). */
export function dragDates(task: { start: number; end: number }, mode: DragMode, delta: number) {
  if (mode === 'move') return { start: task.start + delta, end: task.end + delta };
  if (mode === 'start') return { start: Math.min(task.start + delta, task.end), end: task.end };
  return { start: task.start, end: Math.max(task.end + delta, task.start) };
}

/** The days shown: a margin around the tasks, aligned to the zoom's unit (a week starts on Monday). */
export function axisRange(tasks: readonly { start: number; end: number }[], zoom: Zoom, today: number) {
  let min = today;
  let max = today;
  for (const t of tasks) {
    min = Math.min(min, t.start);
    max = Math.max(max, t.end);
  }
  const pad = zoom === 'day' ? 3 : zoom === 'week' ? 7 : 31;
  let from = min - pad;
  let to = max + pad;
  if (zoom === 'week') from -= (((from + 3) % 7) + 7) % 7; // day 0 (1970-01-01) is a Thursday
  if (zoom === 'month') {
    const d = new Date(from * DAY);
    from = Math.round(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / DAY);
  }
  to = Math.max(to, from + (zoom === 'day' ? 14 : zoom === 'week' ? 56 : 180));
  return { from, to };
}

export interface Tick {
  day: number;
  label: string;
}

/** Labels on the axis: each day, each Monday, or each first of a month. */
export function axisTicks(from: number, to: number, zoom: Zoom): Tick[] {
  const ticks: Tick[] = [];
  for (let day = from; day <= to; day++) {
    const d = new Date(day * DAY);
    const dom = d.getUTCDate();
    if (zoom === 'day')
      ticks.push({ day, label: dom === 1 || day === from ? dayText(day).slice(5) : String(dom) });
    else if (zoom === 'week' && d.getUTCDay() === 1) ticks.push({ day, label: dayText(day).slice(5) });
    else if (zoom === 'month' && dom === 1) ticks.push({ day, label: dayText(day).slice(0, 7) });
  }
  return ticks;
}
