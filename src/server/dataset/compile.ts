/**
 * Compiles a dataset show into ONE SQL statement (SQLite and PostgreSQL), mirroring the reference
 * evaluator in src/shared/dataset/evaluate.ts:
 *
 *   SELECT <output>, COUNT(*) OVER () FROM (
 *     SELECT <columns | group keys, aggregates>, <row ids>
 *     FROM e_base a0 LEFT JOIN … WHERE <dataset filter, column expressions inlined> [GROUP BY 1, 2…]
 *   ) d WHERE <caller's filter> ORDER BY <keys>, <tie-break> LIMIT … OFFSET …
 *
 * A group by the year, month or day of a date is made in two steps inside `d`: by the day number
 * (integer arithmetic per row), then the partial groups by the calendar text (see `dayGrouping`).
 *
 * Table and column names come from our own ids only; every value is a bound parameter.
 */
import { type RawBuilder, sql } from 'kysely';
import { ACCURACY_DEFAULT } from '../../shared/constants.ts';
import { BEIJING_OFFSET_MS } from '../../shared/dataset/evaluate.ts';
import type { ShowPlan } from '../../shared/dataset/show.ts';
import { tieBreak } from '../../shared/dataset/show.ts';
import type { DatasetPlan, Expr, ValueType } from '../../shared/dataset/types.ts';
import { BASE_ALIAS } from '../../shared/dataset/validate.ts';
import { entityTable, fieldColumn, linkTable } from '../data/ddl.ts';
import { type ColumnMap, QueryCompiler } from '../data/sql-query.ts';
import type { Dialect } from '../db/index.ts';

type Sql = RawBuilder<unknown>;

const TEXTLIKE = (t: ValueType) => t !== 'number' && t !== 'date';

/** The dataset's own filter, over column expressions (so indexes on the stored columns apply). */
class ExprCompiler extends QueryCompiler {
  constructor(
    dialect: Dialect,
    columns: ColumnMap,
    private readonly exprs: Map<string, Sql>,
  ) {
    super(dialect, columns, 'a0');
  }
  protected override col(field: string): Sql {
    const e = this.exprs.get(field);
    if (!e) throw new Error(`unknown column ${field}`);
    return e;
  }
}

/** The calendar text of a date part, from seconds since the epoch already shifted to Beijing time. */
function datePartOf(pg: boolean, part: 'year' | 'month' | 'day', seconds: Sql): Sql {
  const fmt = { year: ['%Y', 'YYYY'], month: ['%Y-%m', 'YYYY-MM'], day: ['%Y-%m-%d', 'YYYY-MM-DD'] }[part];
  return pg
    ? sql`to_char(to_timestamp(${seconds}) AT TIME ZONE 'UTC', ${sql.raw(`'${fmt[1]}'`)})`
    : sql`strftime(${sql.raw(`'${fmt[0]}'`)}, ${seconds}, 'unixepoch')`;
}

const DAY_MS = 86_400_000;

/** The Beijing day number (days since 1970-01-01) of a stored date in ms: floor division, also before 1970. */
function dayNumber(ms: Sql): Sql {
  const x = sql`(${ms} + ${sql.raw(String(BEIJING_OFFSET_MS))})`;
  const d = sql.raw(String(DAY_MS));
  return sql`((${x} - ((${x} % ${d}) + ${d}) % ${d}) / ${d})`;
}

/**
 * When a grouped dataset may be grouped in two steps: some group key is the year, month or day of a
 * stored date (an integer column) and every aggregate can be combined from partial groups (all but
 * distinct count). Answers those keys with their date part and date.
 */
function dayGrouping(plan: DatasetPlan) {
  if (plan.aggregates.some((a) => a.fn === 'distinct')) return undefined;
  const out = new Map<string, { fn: 'year' | 'month' | 'day'; arg: Expr }>();
  for (const g of plan.group) {
    const e = plan.columns.find((c) => c.key === g)?.expr;
    if (e?.kind !== 'fn' || (e.fn !== 'year' && e.fn !== 'month' && e.fn !== 'day')) continue;
    const arg = e.args[0];
    if (arg?.kind === 'ref' && arg.type === 'date') out.set(g, { fn: e.fn, arg });
  }
  return out.size ? out : undefined;
}

export interface CompiledShow {
  statement: Sql;
  /** Output key → SQL alias in the answer rows. */
  names: { key: string; alias: string; type: ValueType }[];
}

/** The rows of a show before paging: `SELECT … FROM (<inner>) d WHERE <extra>`, its columns named d0, d1 … */
interface ShowBody {
  innerSql: Sql;
  extra: Sql;
  dName: Map<string, string>;
  typeOf: Map<string, ValueType>;
}

function compileBody(dialect: Dialect, plan: DatasetPlan, show: ShowPlan): ShowBody {
  const pg = dialect === 'postgres';
  const aliasIndex = new Map<string, number>([[BASE_ALIAS, 0]]);
  plan.joins.forEach((j, i) => {
    aliasIndex.set(j.alias, i + 1);
  });
  const a = (alias: string) => `a${aliasIndex.get(alias)!}`;

  // FROM with the joins.
  const from: Sql[] = [sql`${sql.table(entityTable(plan.base.id))} ${sql.raw('a0')}`];
  const rowIds: Sql[] = [sql`${sql.ref('a0._id')} AS ${sql.ref('_id')}`];
  plan.joins.forEach((j, i) => {
    const me = `a${i + 1}`;
    const parent = a(j.from);
    const target = sql.table(entityTable(j.entity.id));
    if (j.field.type === 'collection') {
      const l = `l${i + 1}`;
      from.push(
        sql`LEFT JOIN ${sql.table(linkTable(j.field.id))} ${sql.raw(l)} ON ${sql.ref(`${l}.owner_id`)} = ${sql.ref(`${parent}._id`)}`,
      );
      from.push(
        sql`LEFT JOIN ${target} ${sql.raw(me)} ON ${sql.ref(`${me}._id`)} = ${sql.ref(`${l}.target_id`)}`,
      );
      rowIds.push(sql`${sql.ref(`${l}.target_id`)} AS ${sql.ref(`__j${i}`)}`);
    } else {
      const fk = sql.ref(`${parent}.${fieldColumn(j.field.id)}`);
      from.push(sql`LEFT JOIN ${target} ${sql.raw(me)} ON ${sql.ref(`${me}._id`)} = ${fk}`);
      rowIds.push(sql`${fk} AS ${sql.ref(`__j${i}`)}`);
    }
  });

  const expr = (e: Expr): Sql => {
    switch (e.kind) {
      case 'ref': {
        const col = typeof e.field === 'string' ? e.field : fieldColumn(e.field.id);
        return sql.ref(`${a(e.alias)}.${col}`);
      }
      case 'value':
        if (typeof e.value === 'number')
          return pg ? sql`CAST(${e.value} AS double precision)` : sql`CAST(${e.value} AS REAL)`;
        return pg ? sql`CAST(${e.value} AS text)` : sql`CAST(${e.value} AS TEXT)`;
      case 'fn': {
        const x = e.args.map(expr);
        const dbl = (v: Sql) => (pg ? sql`CAST(${v} AS double precision)` : sql`CAST(${v} AS REAL)`);
        switch (e.fn) {
          case 'add':
            return sql`(${x[0]} + ${x[1]})`;
          case 'sub':
            return sql`(${x[0]} - ${x[1]})`;
          case 'mul':
            return sql`(${x[0]} * ${x[1]})`;
          case 'div':
            return sql`(${dbl(x[0]!)} / NULLIF(${dbl(x[1]!)}, 0))`;
          case 'neg':
            return sql`(- ${x[0]})`;
          case 'abs':
            return sql`abs(${x[0]})`;
          case 'concat':
            return sql`(${sql.join(x, sql` || `)})`;
          case 'length':
            return pg ? sql`CAST(char_length(${x[0]}) AS double precision)` : sql`length(${x[0]})`;
          case 'coalesce':
            return sql`COALESCE(${sql.join(x)})`;
          case 'year':
          case 'month':
          case 'day':
            return datePartOf(pg, e.fn, sql`(${x[0]} + ${sql.raw(String(BEIJING_OFFSET_MS))}) / 1000.0`);
        }
      }
    }
  };

  const exprs = new Map<string, Sql>(plan.columns.map((c) => [c.key, expr(c.expr)]));
  exprs.set('_id', sql.ref('a0._id'));
  const colTypes: ColumnMap = Object.fromEntries(
    plan.columns.map((c) => [c.key, { type: c.type, column: c.key }]),
  );
  const where = new ExprCompiler(dialect, colTypes, exprs).where(show.where.where);
  const typeOf = new Map<string, ValueType>(plan.columns.map((c) => [c.key, c.type]));

  // The inner select: its columns are named d0, d1 … (output and tie-break keys).
  const inner: Sql[] = [];
  const dName = new Map<string, string>();
  const add = (key: string, value: Sql) => {
    const n = `d${dName.size}`;
    dName.set(key, n);
    inner.push(sql`${value} AS ${sql.ref(n)}`);
  };
  let groupBy: Sql = sql``;
  let twoStep: Sql | undefined;
  const byDay = plan.grouped ? dayGrouping(plan) : undefined;
  if (byDay) {
    // Grouped by the calendar part of a date: first by the day number (integer arithmetic, no
    // calendar text per row), then those few hundred partial groups by the part's text.
    const part: Sql[] = [];
    plan.group.forEach((g, i) => {
      const d = byDay.get(g);
      part.push(sql`${d ? dayNumber(expr(d.arg)) : exprs.get(g)!} AS ${sql.ref(`g${i}`)}`);
      add(g, d ? datePartOf(pg, d.fn, sql`${sql.ref(`q.g${i}`)} * 86400`) : sql.ref(`q.g${i}`));
    });
    plan.aggregates.forEach((ag, j) => {
      const v = ag.of ? exprs.get(ag.of)! : null;
      const textual = ag.of ? TEXTLIKE(typeOf.get(ag.of)!) : false;
      const collate = (x: Sql) => (pg && textual ? sql`${x} COLLATE "C"` : x);
      const p = sql.ref(`q.p${j}`);
      const c = sql.ref(`q.c${j}`);
      const dbl = (x: Sql) => (pg ? sql`CAST(${x} AS double precision)` : sql`CAST(${x} AS REAL)`);
      switch (ag.fn) {
        case 'count':
          part.push(sql`${v ? sql`COUNT(${v})` : sql`COUNT(*)`} AS ${sql.ref(`p${j}`)}`);
          add(ag.key, sql`SUM(${p})`);
          break;
        case 'sum':
          part.push(sql`SUM(${v}) AS ${sql.ref(`p${j}`)}`);
          add(ag.key, sql`COALESCE(SUM(${p}), 0)`);
          break;
        case 'avg':
          part.push(sql`SUM(${v}) AS ${sql.ref(`p${j}`)}`, sql`COUNT(${v}) AS ${sql.ref(`c${j}`)}`);
          add(ag.key, sql`(${dbl(sql`SUM(${p})`)} / NULLIF(${dbl(sql`SUM(${c})`)}, 0))`);
          break;
        default: {
          const f = ag.fn === 'min' ? sql`MIN` : sql`MAX`;
          part.push(sql`${f}(${collate(v!)}) AS ${sql.ref(`p${j}`)}`);
          add(ag.key, sql`${f}(${collate(p)})`);
        }
      }
    });
    const keys = sql.raw(plan.group.map((_, i) => String(i + 1)).join(', '));
    twoStep = sql`SELECT ${sql.join(inner)} FROM (SELECT ${sql.join(part)} FROM ${sql.join(from, sql` `)} WHERE ${where} GROUP BY ${keys}) q GROUP BY ${keys}`;
  } else if (plan.grouped) {
    plan.group.forEach((g) => {
      add(g, exprs.get(g)!);
    });
    for (const ag of plan.aggregates) {
      const v = ag.of ? exprs.get(ag.of)! : null;
      const textual = ag.of ? TEXTLIKE(typeOf.get(ag.of)!) : false;
      const arg = v && pg && textual ? sql`${v} COLLATE "C"` : v;
      const agg: Sql =
        ag.fn === 'count'
          ? v
            ? sql`COUNT(${v})`
            : sql`COUNT(*)`
          : ag.fn === 'distinct'
            ? sql`COUNT(DISTINCT ${v})`
            : ag.fn === 'sum'
              ? sql`COALESCE(SUM(${v}), 0)`
              : ag.fn === 'avg'
                ? sql`AVG(${v})`
                : ag.fn === 'min'
                  ? sql`MIN(${arg})`
                  : sql`MAX(${arg})`;
      add(ag.key, agg);
    }
    if (plan.group.length)
      groupBy = sql` GROUP BY ${sql.raw(plan.group.map((_, i) => String(i + 1)).join(', '))}`;
  } else {
    for (const c of plan.columns) add(c.key, exprs.get(c.key)!);
  }
  const innerList = plan.grouped ? inner : [...inner, ...rowIds];
  const innerSql =
    twoStep ?? sql`SELECT ${sql.join(innerList)} FROM ${sql.join(from, sql` `)} WHERE ${where}${groupBy}`;

  // The caller's filter, over the inner columns.
  const outMap: ColumnMap = Object.fromEntries(
    show.output.map((o) => [o.key, { type: o.type, column: dName.get(o.key)! }]),
  );
  const extra = new QueryCompiler(dialect, outMap, 'd').where(show.extra.where);
  return { innerSql, extra, dName, typeOf };
}

export function compileShow(
  dialect: Dialect,
  plan: DatasetPlan,
  show: ShowPlan,
  withCount: boolean,
): CompiledShow {
  const pg = dialect === 'postgres';
  const { innerSql, extra, dName, typeOf } = compileBody(dialect, plan, show);
  const outTypes = new Map<string, ValueType>(plan.output.map((o) => [o.key, o.type]));
  const orderKeys = [...show.sort, ...tieBreak(plan).map((k) => ({ key: k, order: 'asc' as const }))];
  const order = orderKeys.map((k) => {
    const name = dName.get(k.key) ?? k.key;
    const type = outTypes.get(k.key) ?? typeOf.get(k.key) ?? 'text';
    const ref = sql.ref(`d.${name}`);
    const e = pg && TEXTLIKE(type) ? sql`${ref} COLLATE "C"` : ref;
    const dir = k.order === 'desc' ? sql`DESC` : sql`ASC`;
    const nulls = pg ? (k.order === 'desc' ? sql` NULLS LAST` : sql` NULLS FIRST`) : sql``;
    return sql`${e} ${dir}${nulls}`;
  });
  const names = show.output.map((o) => ({ key: o.key, alias: dName.get(o.key)!, type: o.type }));
  const select = names.map((n) => sql.ref(`d.${n.alias}`));
  if (withCount) select.push(sql`COUNT(*) OVER () AS ${sql.ref('__n')}`);
  if (!select.length) select.push(sql`1 AS ${sql.ref('__one')}`);
  // Aggregates without groups answer one row: nothing to order.
  const orderBy = order.length ? sql` ORDER BY ${sql.join(order)}` : sql``;
  const statement = sql`SELECT ${sql.join(select)} FROM (${innerSql}) d WHERE ${extra}${orderBy} LIMIT ${show.extra.limit} OFFSET ${show.extra.offset}`;
  return { statement, names };
}

/** The count of a show alone (only when a page past the end gave no row to carry it). */
export function compileCount(dialect: Dialect, plan: DatasetPlan, show: ShowPlan): Sql {
  const c = compileShow(
    dialect,
    plan,
    { ...show, sort: [], extra: { ...show.extra, offset: 0, limit: 1 } },
    true,
  );
  return c.statement;
}

/** A statistic of a summary: a row count, or count / sum / avg / min / max of an output column. */
export interface SummaryPart {
  fn: 'count' | 'sum' | 'avg' | 'min' | 'max';
  key?: string;
}

/**
 * The statistics of a show over its whole filtered set (the dataset's filter and the caller's, no
 * paging) in one statement: per part a count (`n`), a sum with the count it was taken over (`s`,
 * `c`), or a min / max (`v`), read by the caller with the reference rounding.
 */
export function compileSummary(
  dialect: Dialect,
  plan: DatasetPlan,
  show: ShowPlan,
  parts: SummaryPart[],
): Sql {
  const { innerSql, extra, dName, typeOf } = compileBody(dialect, plan, show);
  const outTypes = new Map<string, ValueType>(show.output.map((o) => [o.key, o.type]));
  const pg = dialect === 'postgres';
  const rounded = new Set(plan.aggregates.filter((a) => a.fn === 'sum' || a.fn === 'avg').map((a) => a.key));
  const list: Sql[] = [];
  parts.forEach((p, i) => {
    const as = (x: string) => sql.ref(`m${i}_${x}`);
    if (!p.key) {
      list.push(sql`COUNT(*) AS ${as('n')}`);
      return;
    }
    const stored = sql.ref(`d.${dName.get(p.key)!}`);
    // Sums and averages of a grouped dataset are shown rounded half away from zero on their decimal
    // text: their statistics are of what is shown. PostgreSQL's numeric cast keeps 15 digits; SQLite
    // rounds the exact binary value, so a half written as …4999999 is nudged by ~4 units in the last
    // place to round as the decimal text does (86.925 → 86.93, not 86.92).
    const digits = sql.raw(String(ACCURACY_DEFAULT));
    const ref = rounded.has(p.key)
      ? pg
        ? sql`round(CAST(${stored} AS numeric), ${digits})`
        : sql`round(${stored} * (1 + 1e-15), ${digits})`
      : stored;
    const type = outTypes.get(p.key) ?? typeOf.get(p.key) ?? 'text';
    // Count as the table summary does: non-empty values (empty text counts as no value).
    if (p.fn === 'count')
      list.push(sql`COUNT(${TEXTLIKE(type) ? sql`NULLIF(${ref}, '')` : ref}) AS ${as('n')}`);
    else if (p.fn === 'sum' || p.fn === 'avg')
      list.push(sql`SUM(${ref}) AS ${as('s')}`, sql`COUNT(${ref}) AS ${as('c')}`);
    else list.push(sql`${p.fn === 'min' ? sql`MIN` : sql`MAX`}(${ref}) AS ${as('v')}`);
  });
  return sql`SELECT ${sql.join(list)} FROM (${innerSql}) d WHERE ${extra}`;
}
