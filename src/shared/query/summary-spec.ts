/** Defensive parse of an untrusted summary request `{ group?, metrics, accuracy? }`. */
import { ACCURACY_DEFAULT } from '../constants.ts';
import { readField } from './clause.ts';
import { invalid, QueryError, tooComplex } from './error.ts';
import type { Metric, SummaryFn, SummarySpec } from './summary.ts';
import type { FieldMap } from './types.ts';
import { isNoValue, isObj, own, readNumber } from './values.ts';

const FNS: readonly SummaryFn[] = ['count', 'sum', 'avg', 'min', 'max'];
const MAX_GROUP = 3;
const MAX_METRICS = 20;

function fieldOf(v: unknown, path: string, fields: FieldMap, ok: (t: string) => boolean): string {
  const field = readField(v, path);
  const type = Object.hasOwn(fields, field) ? fields[field] : undefined;
  if (!type) invalid(path, 'unknown field');
  if (!ok(type)) invalid(path, `cannot summarize a ${type} field this way`);
  return field;
}

function readMetric(v: unknown, path: string, fields: FieldMap): Metric {
  if (!isObj(v)) invalid(path, 'expected { fn, field?, as? }');
  const fn = own(v, 'fn');
  if (typeof fn !== 'string' || !FNS.includes(fn as SummaryFn)) invalid(`${path}.fn`, 'unknown function');
  const m: Metric = { fn: fn as SummaryFn };
  const raw = own(v, 'field');
  if (!isNoValue(raw)) {
    const numeric = (t: string) => t === 'number' || (t === 'date' && (fn === 'min' || fn === 'max'));
    m.field = fieldOf(raw, `${path}.field`, fields, fn === 'count' ? () => true : numeric);
  } else if (fn !== 'count') invalid(`${path}.field`, 'a field is required');
  const as = own(v, 'as');
  if (!isNoValue(as)) m.as = readField(as, `${path}.as`);
  return m;
}

/** Like `normalizeSummary` but throws the QueryError. */
export function normalizeSummaryOrThrow(input: unknown, fields: FieldMap): SummarySpec {
  if (!isObj(input)) invalid('', 'expected a summary request object');
  const group = own(input, 'group') ?? [];
  const metrics = own(input, 'metrics');
  if (!Array.isArray(group)) invalid('group', 'expected a list of fields');
  if (!Array.isArray(metrics) || metrics.length === 0) invalid('metrics', 'expected a non-empty list');
  if (group.length > MAX_GROUP) tooComplex('group', `more than ${MAX_GROUP} fields`);
  if (metrics.length > MAX_METRICS) tooComplex('metrics', `more than ${MAX_METRICS} metrics`);
  const raw = own(input, 'accuracy');
  const accuracy = isNoValue(raw) ? ACCURACY_DEFAULT : readNumber(raw, 'accuracy');
  if (!Number.isInteger(accuracy) || accuracy < 0 || accuracy > 10) invalid('accuracy', 'expected 0 to 10');
  return {
    group: group.map((g, i) =>
      fieldOf(g, `group[${i}]`, fields, (t) => t !== 'collection' && t !== 'options'),
    ),
    metrics: metrics.map((m, i) => readMetric(m, `metrics[${i}]`, fields)),
    accuracy,
  };
}

/** Parses an untrusted summary request against the entity's fields. */
export function normalizeSummary(
  input: unknown,
  fields: FieldMap,
): { ok: true; spec: SummarySpec } | { ok: false; error: QueryError } {
  try {
    return { ok: true, spec: normalizeSummaryOrThrow(input, fields) };
  } catch (e) {
    if (e instanceof QueryError) return { ok: false, error: e };
    throw e;
  }
}
