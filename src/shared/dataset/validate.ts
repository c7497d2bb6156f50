/**
 * Defensive reading of dataset documents (structure) and their check against the project's tables
 * (plan). Every refusal is a QueryError naming the path: DATASET_INVALID (shape),
 * DATASET_UNKNOWN_FIELD (a table, field, alias or column that does not exist), DATASET_JOIN_CYCLE,
 * DATASET_TOO_COMPLEX (limits).
 */

import { QUERY_TYPE_OF_FIELD } from '../api/fields.ts';
import { E, type ErrorDef } from '../errors.ts';
import { QueryError } from '../query/error.ts';
import { FIELD_NAME, QUERY_LIMITS } from '../query/limits.ts';
import { UNSTORABLE } from '../query/values.ts';
import {
  AGG_FNS,
  type AggFn,
  type Catalog,
  type CatalogEntity,
  type CatalogField,
  type DatasetDocument,
  type DatasetInput,
  type DatasetPlan,
  type DisplayColumn,
  EXPR_FNS,
  type Expr,
  type ExprFn,
  type ExprInput,
  type OutputColumn,
  type ParamInput,
  type ResolvedAggregate,
  type ResolvedColumn,
  type ResolvedJoin,
  type ValueType,
} from './types.ts';

export const DATASET_LIMITS = {
  joins: 8,
  columns: 64,
  aggregates: 32,
  group: 8,
  params: 16,
  sort: 10,
  display: 96,
  exprDepth: 8,
  exprNodes: 64,
  /** JSON size of a stored document. */
  bytes: 100_000,
} as const;

export const BASE_ALIAS = 't';

function err(def: ErrorDef, path: string, detail: string): never {
  throw new QueryError(def, path, detail);
}
const invalid = (path: string, detail: string): never => err(E.DATASET_INVALID, path, detail);
const tooMany = (path: string, detail: string): never => err(E.DATASET_TOO_COMPLEX, path, detail);
const unknown = (path: string, detail: string): never => err(E.DATASET_UNKNOWN_FIELD, path, detail);

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Record<string, unknown>, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);

/** Text without NUL or lone surrogates, at most `max` characters. */
export function cleanText(v: unknown, path: string, max: number = QUERY_LIMITS.maxString): string {
  if (typeof v !== 'string') invalid(path, 'expected text');
  const s = v as string;
  if (s.length > max) tooMany(path, `longer than ${max} characters`);
  if (UNSTORABLE.test(s)) invalid(path, 'text holds NUL or a lone surrogate');
  return s;
}

function name(v: unknown, path: string): string {
  if (typeof v !== 'string' || !FIELD_NAME.test(v) || v === '_id' || v.startsWith('__'))
    invalid(path, 'expected a name: letters, digits and _, not _id nor starting with __');
  return v as string;
}

function list(v: unknown, path: string, max: number): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) invalid(path, 'expected a list');
  const a = v as unknown[];
  if (a.length > max) tooMany(path, `more than ${max} items`);
  return a;
}

function keysOnly(o: Record<string, unknown>, allowed: string[], path: string): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) invalid(`${path}.${k}`, 'unknown key');
}

function readExpr(v: unknown, path: string, depth: number, count: { n: number }): ExprInput {
  if (depth > DATASET_LIMITS.exprDepth) tooMany(path, `nested deeper than ${DATASET_LIMITS.exprDepth}`);
  if (++count.n > DATASET_LIMITS.exprNodes) tooMany(path, `more than ${DATASET_LIMITS.exprNodes} parts`);
  if (!isObj(v)) return invalid(path, 'expected { ref }, { value } or { fn, args }');
  if (Object.hasOwn(v, 'ref')) {
    keysOnly(v, ['ref'], path);
    const ref = v.ref;
    if (typeof ref !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,63}\.[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(ref))
      invalid(`${path}.ref`, "expected 'alias.field'");
    return { ref: ref as string };
  }
  if (Object.hasOwn(v, 'value')) {
    keysOnly(v, ['value'], path);
    const x = v.value;
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) invalid(`${path}.value`, 'expected a finite number');
      return { value: Object.is(x, -0) ? 0 : x };
    }
    return { value: cleanText(x, `${path}.value`) };
  }
  keysOnly(v, ['fn', 'args'], path);
  const fn = v.fn;
  if (typeof fn !== 'string' || !Object.hasOwn(EXPR_FNS, fn)) invalid(`${path}.fn`, 'unknown function');
  const args = list(v.args, `${path}.args`, 8).map((a, i) =>
    readExpr(a, `${path}.args[${i}]`, depth + 1, count),
  );
  return { fn: fn as ExprFn, args };
}

function readParam(v: unknown, path: string): ParamInput {
  if (!isObj(v)) invalid(path, 'expected { name, type }');
  const o = v as Record<string, unknown>;
  keysOnly(o, ['name', 'type', 'default'], path);
  const type = o.type;
  if (type !== 'text' && type !== 'number' && type !== 'date')
    invalid(`${path}.type`, 'text, number or date');
  const out: ParamInput = { name: name(o.name, `${path}.name`), type: type as ParamInput['type'] };
  const d = own(o, 'default');
  if (d !== undefined && d !== null && d !== '')
    out.default = readParamValue(out, d, `${path}.default`) as never;
  return out;
}

/** A parameter value as given by a caller: scalar of the parameter's type (a date as ms or text). */
export function readParamValue(p: ParamInput, v: unknown, path: string): string | number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const bad = (d: string): never => err(E.DATASET_PARAM_INVALID, path, d);
  if (p.type === 'number') {
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isFinite(n)) bad('expected a finite number');
    return Object.is(n, -0) ? 0 : (n as number);
  }
  if (p.type === 'date') {
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) bad('expected a date');
      return v;
    }
    if (typeof v !== 'string' || v.length > 40 || !/^[0-9T:.+\- Z]+$/.test(v)) bad('expected a date');
    return v as string;
  }
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') bad('expected text');
  const s = v as string;
  if (s.length > QUERY_LIMITS.maxString) err(E.DATASET_PARAM_INVALID, path, 'text too long');
  if (UNSTORABLE.test(s)) bad('text holds NUL or a lone surrogate');
  return s;
}

/** Structural check of a stored document; answers a clean copy. */
export function parseDatasetDocument(input: unknown): DatasetDocument {
  if (!isObj(input)) invalid('', 'expected { _dataset, _release }');
  const o = input as Record<string, unknown>;
  if (JSON.stringify(o).length > DATASET_LIMITS.bytes) tooMany('', 'document too large');
  const d = own(o, '_dataset');
  if (!isObj(d)) invalid('_dataset', 'expected an object');
  const ds = d as Record<string, unknown>;
  keysOnly(ds, ['base', 'joins', 'columns', 'where', 'group', 'aggregates', 'sort', 'params'], '_dataset');
  const base = typeof ds.base === 'string' ? ds.base : '';
  if (base.length > 64) invalid('_dataset.base', 'expected a table id or code');
  const out: DatasetInput = {
    base,
    joins: list(ds.joins, '_dataset.joins', DATASET_LIMITS.joins).map((j, i) => {
      const p = `_dataset.joins[${i}]`;
      if (!isObj(j)) return invalid(p, 'expected { as, from, field }');
      keysOnly(j, ['as', 'from', 'field'], p);
      return {
        as: name(j.as, `${p}.as`),
        from: j.from === undefined || j.from === '' ? BASE_ALIAS : name(j.from, `${p}.from`),
        field: name(j.field, `${p}.field`),
      };
    }),
    columns: list(ds.columns, '_dataset.columns', DATASET_LIMITS.columns).map((c, i) => {
      const p = `_dataset.columns[${i}]`;
      if (!isObj(c)) return invalid(p, 'expected { key, expr }');
      keysOnly(c, ['key', 'expr'], p);
      return { key: name(c.key, `${p}.key`), expr: readExpr(c.expr, `${p}.expr`, 1, { n: 0 }) };
    }),
    group: list(ds.group, '_dataset.group', DATASET_LIMITS.group).map((g, i) =>
      name(g, `_dataset.group[${i}]`),
    ),
    aggregates: list(ds.aggregates, '_dataset.aggregates', DATASET_LIMITS.aggregates).map((a, i) => {
      const p = `_dataset.aggregates[${i}]`;
      if (!isObj(a)) return invalid(p, 'expected { key, fn, of }');
      keysOnly(a, ['key', 'fn', 'of'], p);
      if (typeof a.fn !== 'string' || !(AGG_FNS as readonly string[]).includes(a.fn))
        invalid(`${p}.fn`, AGG_FNS.join(', '));
      const of = a.of === undefined || a.of === null || a.of === '' ? undefined : name(a.of, `${p}.of`);
      return { key: name(a.key, `${p}.key`), fn: a.fn as AggFn, ...(of ? { of } : {}) };
    }),
    sort: list(ds.sort, '_dataset.sort', DATASET_LIMITS.sort).map((s, i) => {
      const p = `_dataset.sort[${i}]`;
      if (!isObj(s)) return invalid(p, 'expected { key, order }');
      keysOnly(s, ['key', 'order'], p);
      const order = s.order === undefined ? 'asc' : s.order;
      if (order !== 'asc' && order !== 'desc') invalid(`${p}.order`, "expected 'asc' or 'desc'");
      return { key: name(s.key, `${p}.key`), order: order as 'asc' | 'desc' };
    }),
    params: list(ds.params, '_dataset.params', DATASET_LIMITS.params).map((x, i) =>
      readParam(x, `_dataset.params[${i}]`),
    ),
  };
  if (ds.where !== undefined && ds.where !== null) {
    if (!isObj(ds.where) && !Array.isArray(ds.where)) invalid('_dataset.where', 'expected a query group');
    out.where = ds.where;
  }
  const rel = own(o, '_release');
  const disp = isObj(rel) && isObj(rel._display) ? rel._display._entity : undefined;
  const display: DisplayColumn[] = list(disp, '_release._display._entity', DATASET_LIMITS.display).map(
    (c, i) => {
      const p = `_release._display._entity[${i}]`;
      if (!isObj(c)) return invalid(p, 'expected { key, title }');
      keysOnly(c, ['key', 'title'], p);
      const title =
        c.title === undefined || c.title === null ? undefined : cleanText(c.title, `${p}.title`, 200);
      return { key: name(c.key, `${p}.key`), ...(title ? { title } : {}) };
    },
  );
  return { _dataset: out, _release: { _display: { _entity: display } } };
}

const TEXTLIKE: ReadonlySet<ValueType> = new Set(['text', 'time', 'relate']);

/** Check a structurally valid dataset against the project's tables; answers the plan. */
export function planDataset(doc: DatasetDocument, catalog: Catalog): DatasetPlan {
  const ds = doc._dataset;
  if (!ds.base) invalid('_dataset.base', 'choose a base table');
  const base = catalog(ds.base);
  if (!base) return unknown('_dataset.base', `no table ${ds.base}`);
  const aliases = new Map<string, CatalogEntity>([[BASE_ALIAS, base]]);
  const joins: ResolvedJoin[] = [];
  const pending = (ds.joins ?? []).map((j, i) => ({ j, i }));
  const seen = new Set<string>([BASE_ALIAS]);
  for (const { j, i } of pending) {
    if (seen.has(j.as)) invalid(`_dataset.joins[${i}].as`, `alias ${j.as} used twice`);
    seen.add(j.as);
  }
  for (const { j, i } of pending)
    if (!seen.has(j.from ?? BASE_ALIAS)) unknown(`_dataset.joins[${i}].from`, `no alias ${j.from}`);
  // Resolve in dependency order; whatever never becomes reachable from the base is a cycle.
  let left = pending;
  while (left.length) {
    const next = left.filter(({ j }) => !aliases.has(j.from ?? BASE_ALIAS));
    if (next.length === left.length) {
      const names = left.map(({ j }) => `${j.from}→${j.as}`).join(', ');
      err(E.DATASET_JOIN_CYCLE, `_dataset.joins[${left[0]!.i}]`, `joins never reach the base: ${names}`);
    }
    for (const { j, i } of left) {
      const from = aliases.get(j.from ?? BASE_ALIAS);
      if (!from) continue;
      const f = from.fields.find((x) => x.code === j.field);
      if (!f) unknown(`_dataset.joins[${i}].field`, `no field ${j.field} in ${from.code}`);
      if ((f!.type !== 'relate' && f!.type !== 'collection') || !f!.relate)
        invalid(`_dataset.joins[${i}].field`, 'joins follow relate or collection fields');
      const target = catalog(f!.relate!);
      if (!target) unknown(`_dataset.joins[${i}].field`, 'its target table no longer exists');
      aliases.set(j.as, target!);
      joins.push({ alias: j.as, from: j.from ?? BASE_ALIAS, field: f!, entity: target! });
    }
    left = next;
  }

  const resolve = (e: ExprInput, path: string): { expr: Expr; hidden: boolean } => {
    if ('ref' in e) {
      const [alias, field] = e.ref.split('.') as [string, string];
      const ent = aliases.get(alias);
      if (!ent) return unknown(`${path}.ref`, `no alias ${alias}`);
      if (field === '_id')
        return { expr: { kind: 'ref', alias, field: '_id', type: 'relate' }, hidden: false };
      if (field === '_created_at')
        return { expr: { kind: 'ref', alias, field: '_created_at', type: 'date' }, hidden: false };
      const f = ent.fields.find((x) => x.code === field);
      if (!f) return unknown(`${path}.ref`, `no field ${field} in ${ent.code}`);
      if (f.type === 'collection' || f.type === '_id')
        return invalid(`${path}.ref`, 'a collection is joined, not shown as a column');
      return { expr: { kind: 'ref', alias, field: f, type: f.type as ValueType }, hidden: f.hide };
    }
    if ('value' in e)
      return {
        expr: { kind: 'value', value: e.value, type: typeof e.value === 'number' ? 'number' : 'text' },
        hidden: false,
      };
    const spec = EXPR_FNS[e.fn];
    const args = e.args.map((a, i) => resolve(a, `${path}.args[${i}]`));
    const types = args.map((a) => a.expr.type);
    let out: ValueType;
    if (spec.args === 'text+') {
      if (args.length < 2) invalid(`${path}.args`, `${e.fn} takes 2 to 8 values`);
      types.forEach((t, i) => {
        if (!TEXTLIKE.has(t)) invalid(`${path}.args[${i}]`, `${e.fn} takes text`);
      });
      out = 'text';
    } else if (spec.args === 'same+') {
      if (args.length < 1) invalid(`${path}.args`, `${e.fn} takes 1 to 8 values`);
      const family = (t: ValueType) => (TEXTLIKE.has(t) ? 'text' : t);
      types.forEach((t, i) => {
        if (family(t) !== family(types[0]!))
          invalid(`${path}.args[${i}]`, `${e.fn} takes values of one type`);
      });
      out = types.every((t) => t === types[0]) ? types[0]! : 'text';
    } else {
      const want = spec.args as readonly string[];
      if (args.length !== want.length) invalid(`${path}.args`, `${e.fn} takes ${want.length} value(s)`);
      types.forEach((t, i) => {
        const w = want[i];
        const fits = w === 'text' ? TEXTLIKE.has(t) : t === w;
        if (!fits) invalid(`${path}.args[${i}]`, `${e.fn} takes ${w}`);
      });
      out = spec.out as ValueType;
    }
    return {
      expr: { kind: 'fn', fn: e.fn, args: args.map((a) => a.expr), type: out },
      hidden: args.some((a) => a.hidden),
    };
  };

  const columns: ResolvedColumn[] = [];
  const keys = new Set<string>();
  ds.columns.forEach((c, i) => {
    if (keys.has(c.key)) invalid(`_dataset.columns[${i}].key`, `key ${c.key} used twice`);
    keys.add(c.key);
    const r = resolve(c.expr, `_dataset.columns[${i}].expr`);
    columns.push({ key: c.key, expr: r.expr, type: r.expr.type, hidden: r.hidden });
  });
  if (!columns.length) invalid('_dataset.columns', 'add at least one column');
  const col = (k: string, path: string): ResolvedColumn =>
    columns.find((c) => c.key === k) ?? unknown(path, `no column ${k}`);

  const group = (ds.group ?? []).map((g, i) => col(g, `_dataset.group[${i}]`).key);
  if (new Set(group).size !== group.length) invalid('_dataset.group', 'a column grouped twice');
  const aggregates: ResolvedAggregate[] = (ds.aggregates ?? []).map((a, i) => {
    const p = `_dataset.aggregates[${i}]`;
    if (keys.has(a.key)) invalid(`${p}.key`, `key ${a.key} used twice`);
    keys.add(a.key);
    if (!a.of && a.fn !== 'count') invalid(`${p}.of`, `${a.fn} needs a column`);
    const of = a.of ? col(a.of, `${p}.of`) : null;
    let type: ValueType = 'number';
    if (of && (a.fn === 'sum' || a.fn === 'avg') && of.type !== 'number')
      invalid(`${p}.of`, `${a.fn} takes numbers`);
    if (of && (a.fn === 'min' || a.fn === 'max')) type = of.type;
    const hidden = Boolean(of?.hidden) && (a.fn === 'min' || a.fn === 'max');
    return { key: a.key, fn: a.fn, of: of?.key ?? null, type, hidden };
  });
  const grouped = group.length > 0 || aggregates.length > 0;
  const output: OutputColumn[] = grouped
    ? [
        ...group.map((g) => {
          const c = col(g, '_dataset.group');
          return { key: c.key, type: c.type, hidden: c.hidden };
        }),
        ...aggregates.map((a) => ({ key: a.key, type: a.type, hidden: a.hidden })),
      ]
    : columns.map((c) => ({ key: c.key, type: c.type, hidden: c.hidden }));
  const sort = (ds.sort ?? []).map((s, i) => {
    if (!output.some((o) => o.key === s.key)) unknown(`_dataset.sort[${i}].key`, `no output column ${s.key}`);
    return { key: s.key, order: s.order ?? 'asc' };
  });
  const params = ds.params ?? [];
  if (new Set(params.map((p) => p.name)).size !== params.length)
    invalid('_dataset.params', 'a name used twice');
  checkWhereParams(ds.where, params);
  doc._release._display._entity.forEach((d, i) => {
    if (!output.some((o) => o.key === d.key))
      unknown(`_release._display._entity[${i}].key`, `no output column ${d.key}`);
  });
  return { base, joins, columns, where: ds.where ?? null, grouped, group, aggregates, sort, params, output };
}

/** Every `{ $param }` of the where names a declared parameter. */
function checkWhereParams(where: unknown, params: ParamInput[]): void {
  const walk = (v: unknown, path: string, depth: number): void => {
    if (depth > QUERY_LIMITS.maxDepth * 3) tooMany(path, 'nested too deep');
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        walk(x, `${path}[${i}]`, depth + 1);
      });
    } else if (isObj(v)) {
      if (Object.hasOwn(v, '$param')) {
        if (!params.some((p) => p.name === v.$param)) unknown(path, `no parameter ${String(v.$param)}`);
        return;
      }
      for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`, depth + 1);
    }
  };
  walk(where, '_dataset.where', 0);
}

/** The where with `{ $param: name }` values replaced by the caller's (or default) values. */
export function substituteParams(where: unknown, params: ParamInput[], given: unknown): unknown {
  if (given !== undefined && given !== null && !isObj(given))
    err(E.DATASET_PARAM_INVALID, 'params', 'expected { name: value }');
  const g = (given ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(g))
    if (!params.some((p) => p.name === k)) err(E.DATASET_PARAM_INVALID, `params.${k}`, 'no such parameter');
  const values = new Map<string, string | number | undefined>();
  for (const p of params) {
    const v = own(g, p.name);
    values.set(p.name, v === undefined ? p.default : readParamValue(p, v, `params.${p.name}`));
  }
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isObj(v)) return v;
    if (Object.hasOwn(v, '$param')) return values.get(String(v.$param));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
  };
  return walk(where);
}

/** Query-language type of each column key (for the dataset's where) and `_id` (the base row). */
export function columnFieldMap(plan: DatasetPlan): Record<string, ValueType> {
  return Object.fromEntries(plan.columns.map((c) => [c.key, c.type]));
}

/** Query-language type of each output key (for extra filters and sort). */
export function outputFieldMap(cols: OutputColumn[]): Record<string, ValueType> {
  return Object.fromEntries(cols.map((c) => [c.key, c.type]));
}

/** The query type of a stored field type. */
export function fieldQueryType(type: string): CatalogField['type'] {
  return Object.hasOwn(QUERY_TYPE_OF_FIELD, type)
    ? QUERY_TYPE_OF_FIELD[type as keyof typeof QUERY_TYPE_OF_FIELD]
    : 'text';
}
