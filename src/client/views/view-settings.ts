/**
 * What a user arranges in a data view and keeps on this device (spec: "persisted locally"): columns
 * (order, hidden, widths, fixed side), row height, grouping, statistics and row labels. Read
 * defensively: a stored value from an older build or another table is cleaned, never trusted.
 */

export const ROW_HEIGHTS = ['default', 'middle', 'high', 'max'] as const;
export type RowHeight = (typeof ROW_HEIGHTS)[number];
/** Pixel height of a row at each setting (antd's small table row is about 39 px). */
export const ROW_HEIGHT_PX: Record<RowHeight, number> = { default: 39, middle: 56, high: 80, max: 120 };

export type Fixed = 'left' | 'right';
export const LABEL_COLORS = ['red', 'orange', 'gold', 'green', 'cyan', 'blue', 'purple'] as const;
export type LabelColor = (typeof LABEL_COLORS)[number];

/** A row colour: rows matching the condition get the colour. */
export interface LabelRule {
  field: string;
  opt: 'eq' | 'ne' | 'gt' | 'lt' | 'contain' | 'isnull' | 'notnull';
  value?: string;
  color: LabelColor;
}

export interface ViewSettings {
  /** Field codes in the order shown; fields not listed follow in their own order. */
  order: string[];
  hidden: string[];
  widths: Record<string, number>;
  fixed: Record<string, Fixed>;
  /** The user's own row height; null: the table's (/system/data/{entity}). */
  rowHeight: RowHeight | null;
  /** One or two fields the rows are grouped by. */
  group: string[];
  summary: boolean;
  labels: LabelRule[];
}

export const DEFAULT_SETTINGS: ViewSettings = {
  order: [],
  hidden: [],
  widths: {},
  fixed: {},
  rowHeight: null,
  group: [],
  summary: false,
  labels: [],
};

const MAX_COLUMNS = 200;
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown, max = MAX_COLUMNS): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.length <= 64).slice(0, max) : [];

/** Cleans a stored value: unknown keys dropped, wrong types replaced by defaults. */
export function parseSettings(raw: unknown): ViewSettings {
  if (!isObj(raw)) return { ...DEFAULT_SETTINGS };
  const widths: Record<string, number> = {};
  if (isObj(raw.widths))
    for (const [k, v] of Object.entries(raw.widths))
      if (typeof v === 'number' && v >= 40 && v <= 2000) widths[k] = Math.round(v);
  const fixed: Record<string, Fixed> = {};
  if (isObj(raw.fixed))
    for (const [k, v] of Object.entries(raw.fixed)) if (v === 'left' || v === 'right') fixed[k] = v;
  const labels: LabelRule[] = Array.isArray(raw.labels)
    ? raw.labels
        .filter(
          (l): l is LabelRule =>
            isObj(l) &&
            typeof l.field === 'string' &&
            ['eq', 'ne', 'gt', 'lt', 'contain', 'isnull', 'notnull'].includes(String(l.opt)) &&
            (LABEL_COLORS as readonly unknown[]).includes(l.color),
        )
        .map((l) => ({
          field: l.field,
          opt: l.opt,
          color: l.color,
          ...(typeof l.value === 'string' ? { value: l.value } : {}),
        }))
        .slice(0, 20)
    : [];
  return {
    order: strings(raw.order),
    hidden: strings(raw.hidden),
    widths,
    fixed,
    rowHeight: (ROW_HEIGHTS as readonly unknown[]).includes(raw.rowHeight)
      ? (raw.rowHeight as RowHeight)
      : null,
    group: strings(raw.group, 2),
    summary: raw.summary === true,
    labels,
  };
}

/** Where a view's arrangement is kept: per project and table, and per page widget when it is one. */
export const settingsKey = (project: string, entity: string, view?: string) =>
  `lc_view:${project}:${entity}${view ? `:${view}` : ''}`;

export function loadSettings(key: string): ViewSettings {
  try {
    const text = globalThis.localStorage?.getItem(key);
    return parseSettings(text ? JSON.parse(text) : null);
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

export function saveSettings(key: string, s: ViewSettings): void {
  try {
    globalThis.localStorage?.setItem(key, JSON.stringify(s));
  } catch {
    // Storage full or refused (private mode): the arrangement lasts for this visit only.
  }
}

/** Field codes in the user's order: the stored order first (known ones), then the rest. */
export function orderedKeys(all: readonly string[], s: ViewSettings): string[] {
  const known = s.order.filter((k) => all.includes(k));
  return [...known, ...all.filter((k) => !known.includes(k))];
}

/** Moves a key one place up (-1) or down (+1) in the full order. */
export function moveKey(all: readonly string[], s: ViewSettings, key: string, by: -1 | 1): string[] {
  const order = orderedKeys(all, s);
  const i = order.indexOf(key);
  const j = i + by;
  if (i < 0 || j < 0 || j >= order.length) return order;
  [order[i], order[j]] = [order[j]!, order[i]!];
  return order;
}

/** A day as a label value is written (YYYY-MM-DD): such values order as the days do. */
const DAY_TEXT = /^\d{4}-\d{2}-\d{2}/;

/**
 * The colour of the first label rule a row matches. A rule's value is text the user typed, so it is
 * matched against the value as the server sent it and, when `shown` is given, as the view shows it
 * (a date's day, a relation's name, Yes / No): a rule "Due equals 2026-01-10" matches that day.
 * Greater / less than compare numbers, or days when the value is one.
 */
export function labelOf(
  row: Record<string, unknown>,
  rules: readonly LabelRule[],
  shown?: (field: string, row: Record<string, unknown>) => string,
): LabelColor | undefined {
  for (const r of rules) {
    const v = row[r.field];
    const empty = v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
    const text = shown && !empty ? shown(r.field, row) : '';
    const want = r.value ?? '';
    const same = !empty && (String(v) === want || text === want);
    const days = DAY_TEXT.test(want) && DAY_TEXT.test(text);
    const num = typeof v === 'number' ? v : Number.NaN;
    const hit =
      r.opt === 'isnull'
        ? empty
        : r.opt === 'notnull'
          ? !empty
          : r.opt === 'eq'
            ? same
            : r.opt === 'ne'
              ? !same && (empty ? want !== '' : true)
              : r.opt === 'gt'
                ? days
                  ? text.slice(0, 10) > want.slice(0, 10)
                  : num > Number(want)
                : r.opt === 'lt'
                  ? days
                    ? text.slice(0, 10) < want.slice(0, 10)
                    : num < Number(want)
                  : !empty && (String(v).includes(want) || text.includes(want));
    if (hit) return r.color;
  }
  return undefined;
}
