/**
 * A data table's advanced settings (builder spec /system/data/{entity}): default sort, row labels
 * (colours by condition), row height, page size and the view features switched off for everyone.
 * Kept in the shared store (model `config`, type `project`, key `table.{entityId}`); the end-user data
 * view starts from them (a user's own arrangement on the device still wins).
 */
export const TABLE_CONFIG_PREFIX = 'table.';
export const tableConfigKey = (entityId: string) => `${TABLE_CONFIG_PREFIX}${entityId}`;

export const TABLE_PAGE_SIZES = [10, 20, 50, 100] as const;
export const TABLE_ROW_HEIGHTS = ['default', 'middle', 'high', 'max'] as const;
export const TABLE_LABEL_OPS = ['eq', 'ne', 'gt', 'lt', 'contain', 'isnull', 'notnull'] as const;
export const TABLE_LABEL_COLORS = ['red', 'orange', 'gold', 'green', 'cyan', 'blue', 'purple'] as const;
export const TABLE_LABELS_MAX = 20;

export interface TableLabel {
  field: string;
  opt: (typeof TABLE_LABEL_OPS)[number];
  value?: string;
  color: (typeof TABLE_LABEL_COLORS)[number];
}

export interface TableConfig {
  sort: { field: string; order: 'asc' | 'desc' } | null;
  rowHeight: (typeof TABLE_ROW_HEIGHTS)[number];
  pageSize: (typeof TABLE_PAGE_SIZES)[number];
  /** View features (src/shared/view-features.ts names) switched off on this table. */
  off: string[];
  labels: TableLabel[];
}

export const DEFAULT_TABLE_CONFIG: TableConfig = {
  sort: null,
  rowHeight: 'default',
  pageSize: 20,
  off: [],
  labels: [],
};

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Why a table config is not acceptable, or null. */
export function tableConfigProblem(v: unknown): string | null {
  if (!isObj(v)) return 'expected an object';
  for (const k of Object.keys(v))
    if (!['sort', 'rowHeight', 'pageSize', 'off', 'labels'].includes(k)) return `${k}: unknown setting`;
  if (v.sort !== undefined && v.sort !== null) {
    if (!isObj(v.sort) || typeof v.sort.field !== 'string' || !FIELD.test(v.sort.field))
      return 'sort: a field code';
    if (v.sort.order !== 'asc' && v.sort.order !== 'desc') return 'sort: order asc or desc';
  }
  if (v.rowHeight !== undefined && !(TABLE_ROW_HEIGHTS as readonly unknown[]).includes(v.rowHeight))
    return 'rowHeight: unknown';
  if (v.pageSize !== undefined && !(TABLE_PAGE_SIZES as readonly unknown[]).includes(v.pageSize))
    return 'pageSize: 10, 20, 50 or 100';
  if (
    v.off !== undefined &&
    (!Array.isArray(v.off) ||
      v.off.length > 40 ||
      !v.off.every((x) => typeof x === 'string' && x.length <= 32))
  )
    return 'off: a list of feature names';
  if (v.labels !== undefined) {
    if (!Array.isArray(v.labels) || v.labels.length > TABLE_LABELS_MAX)
      return `labels: at most ${TABLE_LABELS_MAX}`;
    for (const l of v.labels) {
      if (!isObj(l) || typeof l.field !== 'string' || !FIELD.test(l.field))
        return 'labels: a field code each';
      if (!(TABLE_LABEL_OPS as readonly unknown[]).includes(l.opt)) return 'labels: unknown condition';
      if (!(TABLE_LABEL_COLORS as readonly unknown[]).includes(l.color)) return 'labels: unknown colour';
      if (l.value !== undefined && (typeof l.value !== 'string' || l.value.length > 200))
        return 'labels: value text';
    }
  }
  return null;
}

/** A stored config read defensively (anything malformed gives the default). */
export function readTableConfig(v: unknown): TableConfig {
  if (tableConfigProblem(v) !== null) return { ...DEFAULT_TABLE_CONFIG };
  const o = v as Partial<TableConfig>;
  return {
    sort: o.sort ?? null,
    rowHeight: o.rowHeight ?? 'default',
    pageSize: o.pageSize ?? 20,
    off: o.off ?? [],
    labels: o.labels ?? [],
  };
}
