/** Table helpers shared by the data-bound table kinds. */
import { TIME_ZONE } from '../../src/shared/constants.ts';
import { wallAt } from '../../src/shared/query/tz.ts';
import type { FieldMeta } from './widget-context.ts';

export interface DataColumn {
  key: string;
  dataIndex?: string;
  title: string;
  width?: number;
  sorter?: boolean;
  sortOrder?: 'ascend' | 'descend' | null;
  render?: (value: unknown, row: Record<string, unknown>, index: number) => string | number;
}

/** Text of a cell: relate values show their display name (`_field`), objects their name. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(cellText).join(', ');
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return cellText(o.__name ?? o.name ?? o._id ?? '');
  }
  return String(v);
}

/**
 * Dates are stored as epoch milliseconds and shown in the project's zone (Asia/Shanghai), so every
 * user sees the stored day whatever their browser's zone: YYYY-MM-DD (date) or YYYY-MM-DD HH:mm (time).
 */
export function dateText(v: unknown, type: 'date' | 'time', timeZone = TIME_ZONE): string {
  if (v === null || v === undefined || v === '') return '';
  const ms = new Date(typeof v === 'number' ? v : String(v)).getTime();
  if (Number.isNaN(ms)) return cellText(v);
  // Rows scrolling into view repeat the same days: each text is worked out (Intl) once.
  const key = `${type}|${timeZone}|${ms}`;
  const hit = dateTexts.get(key);
  if (hit !== undefined) return hit;
  const w = wallAt(ms, timeZone);
  const p = (n: number) => String(n).padStart(2, '0');
  const day = `${w.y}-${p(w.m)}-${p(w.d)}`;
  const text = type === 'date' ? day : `${day} ${p(w.h)}:${p(w.mi)}`;
  if (dateTexts.size >= DATE_TEXTS_MAX) dateTexts.clear();
  dateTexts.set(key, text);
  return text;
}

const DATE_TEXTS_MAX = 10_000;
const dateTexts = new Map<string, string>();

export function rowKey(row: Record<string, unknown>): string {
  return String(row._id ?? JSON.stringify(row));
}

/** Whether the server can sort by a field of this type (collections cannot; images are URLs). */
export const sortable = (type: string | undefined) => type !== 'collection' && type !== 'image';

/**
 * Columns from field meta (hidden fields left out), with an optional index column first. With `sort`
 * the sortable columns get a sorter whose order is `sorted` (the server sorts; antd only shows it).
 */
export function dataColumns(
  fields: FieldMeta[] | undefined,
  opts: {
    index?: boolean;
    /** Rows before this page: the index column counts on from them. */
    indexFrom?: number;
    sort?: boolean;
    sorted?: { field: string; order: 'asc' | 'desc' };
  },
): DataColumn[] {
  const cols: DataColumn[] = (fields ?? [])
    .filter((f) => !f.hide)
    .map((f) => ({
      key: f.key,
      dataIndex: f.key,
      title: f.name,
      ...(opts.sort && sortable(f.type)
        ? {
            sorter: true,
            sortOrder:
              opts.sorted?.field === f.key ? (opts.sorted.order === 'asc' ? 'ascend' : 'descend') : null,
          }
        : {}),
      render: (_v, row) =>
        f.type === 'date' || f.type === 'time'
          ? dateText(row[f.key], f.type)
          : cellText(row[`_${f.key}`] ?? row[f.key]),
    }));
  if (opts.index)
    cols.unshift({
      key: '__index',
      title: '#',
      width: 56,
      render: (_v, _r, i) => (opts.indexFrom ?? 0) + i + 1,
    });
  return cols;
}
