/**
 * Summary and group helpers: count, sum, avg, min, max per group and overall. Semantics the SQL
 * side mirrors: `count` without a field counts rows, with a field counts non-empty values; sum of
 * nothing is 0; avg/min/max of nothing are null; group keys use the filter's notion of empty
 * (text '' groups with null); groups come in key order, null first; results are rounded with
 * roundHalfAway to `accuracy` digits (default 2), counts never.
 */
import { ACCURACY_DEFAULT } from '../constants.ts';
import { cell, compareSortValues, type Row, readCell } from './compare.ts';
import type { FieldType } from './operators.ts';
import { preciseSum, roundHalfAway } from './round.ts';
import type { FieldMap } from './types.ts';

export type SummaryFn = 'count' | 'sum' | 'avg' | 'min' | 'max';

export interface Metric {
  fn: SummaryFn;
  /** Required except for `count`. */
  field?: string;
  /** Key in the answer; default `fn` or `fn_field`. */
  as?: string;
}

export interface SummarySpec {
  group?: string[];
  metrics: Metric[];
  accuracy?: number;
}

export type GroupKey = Array<string | number | null>;
export type MetricValues = Record<string, number | null>;

export interface SummaryAnswer {
  total: MetricValues;
  groups: Array<{ key: GroupKey; values: MetricValues }>;
}

function typeOf(fields: FieldMap, field: string, fallback: FieldType): FieldType {
  return (Object.hasOwn(fields, field) ? fields[field] : undefined) ?? fallback;
}

/** The answer key of a metric. */
export function metricName(m: Metric): string {
  return m.as ?? (m.field ? `${m.fn}_${m.field}` : m.fn);
}

function metric(rows: readonly Row[], m: Metric, fields: FieldMap, accuracy: number): number | null {
  if (!m.field) return rows.length;
  const type = typeOf(fields, m.field, 'number');
  const values = rows.map((r) => readCell(type, cell(r, m.field!))).filter((v) => v !== null);
  if (m.fn === 'count') return values.length;
  const nums = values.filter((v): v is number => typeof v === 'number');
  if (m.fn === 'sum') return roundHalfAway(preciseSum(nums), accuracy);
  if (nums.length === 0) return null;
  if (m.fn === 'avg') return roundHalfAway(preciseSum(nums) / nums.length, accuracy);
  const pick = m.fn === 'min' ? Math.min : Math.max;
  return roundHalfAway(
    nums.reduce((a, b) => pick(a, b)),
    accuracy,
  );
}

function values(rows: readonly Row[], spec: SummarySpec, fields: FieldMap): MetricValues {
  const accuracy = spec.accuracy ?? ACCURACY_DEFAULT;
  const out: MetricValues = {};
  for (const m of spec.metrics) out[metricName(m)] = metric(rows, m, fields, accuracy);
  return out;
}

function keyOf(row: Row, group: string[], fields: FieldMap): GroupKey {
  return group.map((f) => {
    const v = readCell(typeOf(fields, f, 'text'), cell(row, f));
    return Array.isArray(v) ? null : v;
  });
}

function compareKeys(a: GroupKey, b: GroupKey): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareSortValues(a[i] ?? null, b[i] ?? null);
    if (c !== 0) return c;
  }
  return 0;
}

/** Summarizes rows (already filtered) overall and per group. */
export function summarize(rows: readonly Row[], spec: SummarySpec, fields: FieldMap): SummaryAnswer {
  const group = spec.group ?? [];
  const buckets = new Map<string, { key: GroupKey; rows: Row[] }>();
  if (group.length > 0) {
    for (const row of rows) {
      const key = keyOf(row, group, fields);
      const id = JSON.stringify(key);
      const b = buckets.get(id) ?? { key, rows: [] };
      b.rows.push(row);
      buckets.set(id, b);
    }
  }
  const groups = [...buckets.values()]
    .sort((x, y) => compareKeys(x.key, y.key))
    .map((b) => ({ key: b.key, values: values(b.rows, spec, fields) }));
  return { total: values(rows, spec, fields), groups };
}
