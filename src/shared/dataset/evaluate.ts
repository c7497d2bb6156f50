/**
 * The reference evaluator: the meaning of a dataset over plain arrays. The SQL compiler must answer
 * exactly this (the agreement property test checks it on SQLite and PostgreSQL).
 *
 * - Joins are left joins in plan order: a relate field joins the one target row of that id (none →
 *   nulls); a collection joins one row per linked id (no links → one row of nulls).
 * - Columns are computed per joined row; the dataset filter (query language over column keys, `_id`
 *   the base row's id) keeps rows; then groups (null and '' are groups of their own) and aggregates.
 * - The caller's filter applies to the output rows; the order is the sort keys, then the group keys
 *   (grouped) or the base id and each join's id (not grouped), ascending; then the page.
 */
import { compareSortValues, compareText, type Row, sortValue } from '../query/compare.ts';
import { matches } from '../query/predicate.ts';
import { roundHalfAway } from '../query/round.ts';
import type { ShowPlan } from './show.ts';
import { tieBreak } from './show.ts';
import type { DatasetPlan, Expr, ValueType } from './types.ts';

export const BEIJING_OFFSET_MS = 8 * 3600 * 1000;

/** Tables by entity id: rows keyed by field code; a collection is a list of target ids. */
export type Tables = Record<string, Row[]>;

export interface ShowAnswer {
  rows: Record<string, unknown>[];
  count?: number;
}

type Val = string | number | null;

function typed(type: ValueType, v: unknown): Val {
  if (type === 'number' || type === 'date') return typeof v === 'number' && Number.isFinite(v) ? v : null;
  return typeof v === 'string' ? v : null;
}

/** A date's calendar text in Beijing time: 'YYYY', 'YYYY-MM' or 'YYYY-MM-DD'. */
export function datePart(ms: number, part: 'year' | 'month' | 'day'): string {
  const iso = new Date(ms + BEIJING_OFFSET_MS).toISOString();
  return iso.slice(0, part === 'year' ? 4 : part === 'month' ? 7 : 10);
}

export function evalExpr(e: Expr, tuple: Record<string, Row | null>): Val {
  switch (e.kind) {
    case 'value':
      return e.value;
    case 'ref': {
      const row = tuple[e.alias];
      if (!row) return null;
      const code = typeof e.field === 'string' ? e.field : e.field.code;
      return typed(e.type, Object.hasOwn(row, code) ? row[code] : null);
    }
    case 'fn': {
      const a = e.args.map((x) => evalExpr(x, tuple));
      const n = a as (number | null)[];
      const s = a as (string | null)[];
      switch (e.fn) {
        case 'add':
          return n[0] === null || n[1] === null ? null : n[0]! + n[1]!;
        case 'sub':
          return n[0] === null || n[1] === null ? null : n[0]! - n[1]!;
        case 'mul':
          return n[0] === null || n[1] === null ? null : n[0]! * n[1]!;
        case 'div':
          return n[0] === null || n[1] === null || n[1] === 0 ? null : n[0]! / n[1]!;
        case 'neg':
          return n[0] === null ? null : -n[0]!;
        case 'abs':
          return n[0] === null ? null : Math.abs(n[0]!);
        case 'concat':
          return s.some((x) => x === null) ? null : s.join('');
        case 'length':
          return s[0] === null ? null : [...s[0]!].length;
        case 'coalesce':
          return a.find((x) => x !== null) ?? null;
        case 'year':
        case 'month':
        case 'day':
          return n[0] === null ? null : datePart(n[0]!, e.fn);
      }
    }
  }
}

/** Numbers as the answer carries them: -0 is 0, aggregates of sums rounded to 2 digits. */
export function cleanNumber(v: number): number {
  return Object.is(v, -0) ? 0 : v;
}

function aggregate(fn: string, values: Val[], type: ValueType, rows: number): Val {
  const present = values.filter((v): v is string | number => v !== null);
  switch (fn) {
    case 'count':
      return rows;
    case 'distinct':
      return new Set(present.map((v) => (typeof v === 'number' ? cleanNumber(v) : v))).size;
    case 'sum':
      return roundHalfAway(cleanNumber((present as number[]).reduce((x, y) => x + y, 0)));
    case 'avg':
      return present.length
        ? roundHalfAway(cleanNumber((present as number[]).reduce((x, y) => x + y, 0) / present.length))
        : null;
    default: {
      if (!present.length) return null;
      const textLike = type !== 'number' && type !== 'date';
      let best = present[0]!;
      for (const v of present.slice(1)) {
        const c = textLike ? compareText(v as string, best as string) : (v as number) - (best as number);
        if (fn === 'min' ? c < 0 : c > 0) best = v;
      }
      return best;
    }
  }
}

/** Joined rows with their computed columns, `_id` and the join ids (`__j<i>`). */
export function joinedRows(plan: DatasetPlan, tables: Tables): Row[] {
  const index = new Map<string, Map<string, Row>>();
  const byId = (entity: string) => {
    let m = index.get(entity);
    if (!m) {
      m = new Map((tables[entity] ?? []).map((r) => [String(r._id), r]));
      index.set(entity, m);
    }
    return m;
  };
  type Tuple = { rows: Record<string, Row | null>; ids: (string | null)[] };
  let tuples: Tuple[] = (tables[plan.base.id] ?? []).map((r) => ({ rows: { t: r }, ids: [] }));
  for (const j of plan.joins) {
    const targets = byId(j.entity.id);
    const next: Tuple[] = [];
    for (const tu of tuples) {
      const parent = tu.rows[j.from] ?? null;
      const raw = parent && Object.hasOwn(parent, j.field.code) ? parent[j.field.code] : null;
      if (j.field.type === 'collection') {
        const ids = Array.isArray(raw) ? (raw.filter((x) => typeof x === 'string') as string[]) : [];
        if (!ids.length) next.push({ rows: { ...tu.rows, [j.alias]: null }, ids: [...tu.ids, null] });
        for (const id of ids)
          next.push({ rows: { ...tu.rows, [j.alias]: targets.get(id) ?? null }, ids: [...tu.ids, id] });
      } else {
        const id = typeof raw === 'string' ? raw : null;
        next.push({
          rows: { ...tu.rows, [j.alias]: id === null ? null : (targets.get(id) ?? null) },
          ids: [...tu.ids, id],
        });
      }
    }
    tuples = next;
  }
  return tuples.map((tu) => {
    const row: Row = { _id: tu.rows.t!._id };
    tu.ids.forEach((id, i) => {
      row[`__j${i}`] = id;
    });
    for (const c of plan.columns) {
      const v = evalExpr(c.expr, tu.rows);
      row[c.key] = typeof v === 'number' ? cleanNumber(v) : v;
    }
    return row;
  });
}

function groupKey(v: Val): string {
  return v === null ? 'n' : typeof v === 'number' ? `#${cleanNumber(v)}` : `s${v}`;
}

/** The output rows of a dataset before the caller's filter (grouped and aggregated). */
export function datasetRows(plan: DatasetPlan, tables: Tables, show: ShowPlan): Row[] {
  if (show.where.nothing) return [];
  const rows = joinedRows(plan, tables).filter((r) => matches(show.where.where, r));
  if (!plan.grouped) return rows;
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const k = plan.group.map((g) => groupKey(r[g] as Val)).join('\u0001');
    let list = groups.get(k);
    if (!list) {
      list = [];
      groups.set(k, list);
    }
    list.push(r);
  }
  // Aggregates without grouping answer one row even over no rows.
  if (!plan.group.length && !groups.size) groups.set('', []);
  const types = new Map(plan.columns.map((c) => [c.key, c.type]));
  return [...groups.values()].map((list) => {
    const out: Row = {};
    for (const g of plan.group) out[g] = list[0]![g] ?? null;
    for (const a of plan.aggregates) {
      const values = a.of ? list.map((r) => (r[a.of!] ?? null) as Val) : [];
      const v =
        a.fn === 'count' && a.of
          ? values.filter((x) => x !== null).length
          : aggregate(a.fn, values, types.get(a.of ?? '') ?? 'number', list.length);
      out[a.key] = v;
    }
    return out;
  });
}

/** Sort output rows: the keys, then the tie-break keys ascending. */
export function sortOutput(plan: DatasetPlan, rows: Row[], show: ShowPlan): Row[] {
  const types = new Map<string, ValueType>(plan.output.map((o) => [o.key, o.type]));
  for (const c of plan.columns) if (!types.has(c.key)) types.set(c.key, c.type);
  const keys = [...show.sort, ...tieBreak(plan).map((k) => ({ key: k, order: 'asc' as const }))];
  const kind = (k: string) => {
    const t = types.get(k);
    return t ?? 'text';
  };
  return [...rows].sort((a, b) => {
    for (const k of keys) {
      const c = compareSortValues(sortValue(kind(k.key), a[k.key]), sortValue(kind(k.key), b[k.key]));
      if (c !== 0) return k.order === 'desc' ? -c : c;
    }
    return 0;
  });
}

/** The whole show over plain arrays: what the SQL answers. */
export function evaluateDataset(plan: DatasetPlan, tables: Tables, show: ShowPlan): ShowAnswer {
  const answer: ShowAnswer = { rows: [] };
  if (show.where.nothing || show.extra.nothing) {
    if (show.extra.count) answer.count = 0;
    return answer;
  }
  const hits = datasetRows(plan, tables, show).filter((r) => matches(show.extra.where, r));
  const page = sortOutput(plan, hits, show).slice(show.extra.offset, show.extra.offset + show.extra.limit);
  answer.rows = page.map((r) => Object.fromEntries(show.output.map((o) => [o.key, r[o.key] ?? null])));
  if (show.extra.count) answer.count = hits.length;
  return answer;
}
