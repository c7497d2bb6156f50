/**
 * Rollups that follow use: write-maintained aggregates for recurring slow grouped summaries (#19).
 *
 * A grouped count + sum over a whole table is a scan, and SQLite's VDBE costs ~135 ns a row: a
 * million rows take ~150 ms even from the covering index auto-index.ts builds, and the summary cache
 * (summary-cache.ts) cannot help the first call after a write (every write drops it). So a summary
 * that can be answered from per-group parts must not scan. When such a shape recurs slow (the same
 * `slowMs` / `recur` as the adaptive indexes), a **rollup** is made: a small table `rx_<entity>_<hash>`
 *
 *     k0[, k1]   the raw group values (no declared type: stored as the record table holds them)
 *     n          rows of the group (count(*))
 *     c<i>       per value column: rows where it holds a value (text: not null and not '')
 *     s<i>, e<i> per number column: its sum, and the Neumaier compensation of that sum
 *
 * kept exact by triggers on the record table (AFTER INSERT, AFTER UPDATE OF the columns it reads,
 * AFTER DELETE): every write path (save, bulk, import's worker connection, program runs, removes and
 * the references they clear, restores) updates it in the writer's own transaction, and a rolled-back
 * write rolls it back too. A summary it serves reads a few rows instead of a million; the rows come
 * out under the same names as the scan's GROUP BY (k<i>, m<i>_n, m<i>_sum, m<i>_cnt; and m<i>_comp,
 * the compensation, added to the sum with the reference's compensated sum), so records.ts merges ''
 * with null and rounds as after a scan.
 *
 * Keys are nullable, so no primary key: a trigger adds to the group's row (`… WHERE k0 IS NEW.c`, an
 * index search: SQLite serves `IS` from an index), then inserts it when that changed nothing
 * (`… WHERE changes() = 0`: inside a trigger, changes() counts the trigger's own last statement). A group whose last row left (n = 0) is deleted, so its sums start
 * again from zero; a value column whose last value left is reset to 0 the same way. In an UPDATE
 * every SET expression sees the old row, which is what the compensation step needs (it reads the old
 * sum beside the new one).
 *
 * Served: group by 0–2 plain fields of the rollup's keys (a subset is summed in SQL), metrics count,
 * count(field), sum, avg over its value columns; a filter only when every field it names is a key of
 * the rollup (its rows then pass or fail by the key alone: the same compiled filter runs on the
 * rollup's key columns). min/max, other filters: the scan as before. Built only for a shape without
 * filter whose scan found at most MAX_GROUPS groups; dropped when it grew past GROWN_GROUPS.
 *
 * Built consistently: the table, its fill (`INSERT … SELECT … GROUP BY`, from the covering index when
 * there is one), the triggers and the data_rollups row are one transaction. It runs like an index
 * build (auto-index.ts): in a child process, stopped by the first write to arrive and tried again
 * once writes are quiet, so no write waits for the fill (up to `deferMs`). At most `maxRollups` per
 * table; unpinned ones unused for `unusedMs` are dropped; builders list, pin and drop them beside the
 * indexes (index-plugin.ts). A schema change reading their columns drops them first (ddl.ts
 * dropRollups: field removal, table removal, migration 018's column rewrite).
 *
 * Measured (1M rows × 12 fields, load 15: figures inflated ~6×, ratios hold): a cold grouped count +
 * sum 0.76 ms from the rollup against 440 ms from the covering index; the fill held the write lock
 * ~1.1–1.3 s with the covering index, ~3.5–4.2 s without (in the preemptible child: writes never
 * wait for it). Cost per write: +1.5 µs CPU a row in 500-row INSERTs (2.1 → 3.6 µs), +2–3 µs a row
 * for one-row inserts; an import of 100k rows ran at 0.95× and 0.98× the throughput without one.
 *
 * PostgreSQL (rollup-pg.ts): the same shapes, served the same way, from a table of delta rows.
 * A per-group row updated by every write would serialize concurrent writers on the hot groups and
 * deadlock multi-row transactions touching groups in different orders (a cost SQLite's single
 * writer never pays), so statement-level triggers only insert one aggregated row per group a
 * statement touched, summaries sum them (`GROUP BY k… HAVING sum(n) > 0`), and a compaction on the
 * builder's queue folds them into one row per group when a read found more than ROWS_PER_GROUP rows
 * per group (or every WRITES_PER_CHECK writes to the table, when they doubled since the last one).
 * Sums are numerics there, without drift (no compensation column). The build takes its table
 * lock only for the moment of creating the table and triggers (with a lock_timeout, tried again),
 * then fills from a REPEATABLE READ snapshot and drops the deltas that snapshot already holds;
 * drops take their lock the same brief way.
 *
 * Measured on PostgreSQL (1M rows × 12 fields, machine shared at load 5–20: absolute figures
 * inflated, ratios from one run): a cold grouped count + sum 1.0–4.1 ms from the rollup against
 * 204–289 ms from the covering index (71–206×; a quiet machine's scan: 126 ms with the covering
 * index, 237 ms without); the fill 0.73–0.99 s, holding no lock writers wait on; the brief lock
 * got at the first try, its whole script 31–39 ms. Writes while it was built: p50 19–31 ms, p99
 * 97–255 ms (35–72 writes); while the covering index was built in the same runs: p50 10–12 ms,
 * p99 58–156 ms, max up to 340 ms — on this machine both are its contention, not lock waits.
 * Cost per statement (PostgreSQL's own EXPLAIN ANALYZE, two tables alike written alternately,
 * load 20): a 500-row INSERT 14.1 → 15.7 ms (1.11×: 0.3 ms the trigger, the rest the transition
 * table), a one-row INSERT or UPDATE +0.09 ms. Imports of 100k rows ran at 0.57–1.53× the
 * throughput without one at load 14–27 (medians 0.70–0.73×): too noisy to settle; measure again on
 * a quiet machine.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { newId } from '../../shared/id.ts';
import type { Cond, NormalizedQuery, SummarySpec } from '../../shared/query/index.ts';
import type { Dialect } from '../db/index.ts';
import type { DataRollupsTable, DB } from '../db/schema.ts';
import { dropRollupObjects } from './ddl.ts';
import { flushUseCounts, type ManagedFigures, managedFigures, p50, sweepUnused } from './managed.ts';
import type { EntityMeta } from './meta.ts';
import {
  COMPACT_ROWS as COMPACT_STEP,
  LOCK_WAIT_MS,
  pgCompactStatement,
  pgCreateStatements,
  pgDropStatements,
  pgFillStatements,
} from './rollup-pg.ts';
import { type ColumnMap, QueryCompiler } from './sql-query.ts';
import { onTableWrite } from './write-clock.ts';

/** Groups a scan may have found for its shape to get a rollup. */
export const MAX_GROUPS = 1000;
/** A rollup read finding more groups than this has outgrown its use: it is dropped. */
const GROWN_GROUPS = 20 * MAX_GROUPS;
/** PostgreSQL: a rollup read more rows than this per group it answered (plus a slack): compact it. */
const ROWS_PER_GROUP = 4;
const ROWS_SLACK = 64;
/** PostgreSQL: writes to a table (write-clock moves) between compaction checks of its rollups. */
const WRITES_PER_CHECK = 500;
/** PostgreSQL: how long a build or drop goes on trying for its brief table lock, ms. */
const LOCK_TRY_MS = 10 * 60_000;

/** A column a rollup counts (and, for numbers, sums). */
export interface RollupVal {
  column: string;
  /** Text-like: a value is present when not null and not ''. */
  text: boolean;
  /** A number column: summed (s, e) as well as counted. */
  sum: boolean;
}

/** What a rollup holds: group columns (in key order) and value columns. */
export interface RollupShape {
  key: string;
  keys: string[];
  vals: RollupVal[];
}

export interface RollupDef extends RollupShape {
  id: string;
  name: string;
}

/** What the rollups need of the index builder they share a queue and a child-process runner with. */
export interface RollupHost {
  readonly db: Kysely<DB>;
  readonly dialect: Dialect;
  readonly options: {
    enabled: boolean;
    rollups: boolean;
    slowMs: number;
    recur: number;
    maxRollups: number;
    unusedMs: number;
  };
  enqueue(job: () => Promise<void>): void;
  /** Run statements as one write transaction, preemptibly; answers the ms of the run that committed. */
  runScript(statements: string[], name: string): Promise<number>;
  onError(err: unknown): void;
}

const TEXT_LIKE = (type: string | undefined) => !['number', 'date', 'boolean'].includes(type ?? '');
/** Filter predicates a key column can answer (collections, options and `_id` are not keys). */
const KEY_PREDS = new Set(['text', 'number', 'date', 'time', 'relate', 'boolean', 'option', 'null']);

/** The fields a filter names; null when it has a predicate a rollup key cannot answer. */
function filterFields(c: Cond | null, out: Set<string>): Set<string> | null {
  if (!c) return out;
  if (c.kind === 'and' || c.kind === 'or') {
    for (const i of c.items) if (!filterFields(i, out)) return null;
    return out;
  }
  if (c.kind === 'false') return out;
  if (!KEY_PREDS.has(c.kind)) return null;
  out.add(c.field);
  return out;
}

function columnOf(meta: EntityMeta, field: string): string | null {
  const c = meta.columns[field];
  if (!c || c.type === 'collection' || c.type === 'options' || field === '_id') return null;
  return c.column;
}

/**
 * The rollup a summary would be served by if it had one: its group columns and the columns its
 * metrics count or sum. Null when a rollup cannot serve it (min/max, more than two groups, a filter).
 */
export function rollupShape(meta: EntityMeta, q: NormalizedQuery, spec: SummarySpec): RollupShape | null {
  if (q.nothing || q.where) return null;
  const group = spec.group ?? [];
  if (group.length > 2) return null;
  const keys: string[] = [];
  for (const g of group) {
    const c = columnOf(meta, g);
    if (!c) return null;
    keys.push(c);
  }
  const vals = new Map<string, RollupVal>();
  for (const m of spec.metrics) {
    if (m.fn === 'min' || m.fn === 'max') return null;
    if (!m.field) continue;
    const c = columnOf(meta, m.field);
    if (!c) return null;
    const type = meta.queryTypes[m.field];
    if (m.fn !== 'count' && type !== 'number') return null;
    vals.set(c, { column: c, text: TEXT_LIKE(type), sum: type === 'number' });
  }
  const list = [...vals.values()].sort((a, b) => (a.column < b.column ? -1 : 1));
  return { key: `r|${keys.join(',')}|${list.map((v) => v.column).join(',')}`, keys, vals: list };
}

/** How a rollup answers one summary: which key serves each group field, which value each metric. */
interface Plan {
  def: RollupDef;
  groupKeys: number[];
  metricVals: Array<number | null>;
}

function planFor(def: RollupDef, meta: EntityMeta, q: NormalizedQuery, spec: SummarySpec): Plan | null {
  const keyOf = (field: string) => {
    const c = columnOf(meta, field);
    return c ? def.keys.indexOf(c) : -1;
  };
  const groupKeys: number[] = [];
  for (const g of spec.group ?? []) {
    const k = keyOf(g);
    if (k < 0) return null;
    groupKeys.push(k);
  }
  const named = filterFields(q.where, new Set());
  if (!named) return null;
  for (const f of named) if (keyOf(f) < 0) return null;
  const metricVals: Array<number | null> = [];
  for (const m of spec.metrics) {
    if (m.fn === 'min' || m.fn === 'max') return null;
    if (!m.field) {
      metricVals.push(null);
      continue;
    }
    const c = columnOf(meta, m.field);
    const v = def.vals.findIndex((x) => x.column === c);
    if (v < 0 || (m.fn !== 'count' && !def.vals[v]!.sum)) return null;
    metricVals.push(v);
  }
  return { def, groupKeys, metricVals };
}

/**
 * The statement reading a summary from a rollup, its rows named as the scan's GROUP BY names them.
 * The rollup's own grouping is read as is; a subset of its keys (or none: the total) is summed.
 */
function readStatement(
  plan: Plan,
  meta: EntityMeta,
  q: NormalizedQuery,
  spec: SummarySpec,
  dialect: Dialect,
) {
  const { def, groupKeys, metricVals } = plan;
  const pg = dialect === 'postgres';
  // PostgreSQL's rollup holds delta rows (rollup-pg.ts): always summed, never read as they are.
  const exact = !pg && groupKeys.length === def.keys.length && groupKeys.every((k, i) => k === i);
  const ref = (c: string) => sql.ref(`t.${c}`);
  const agg = (fn: 'sum' | 'total', x: RawBuilder<unknown>) =>
    exact ? x : sql`${sql.raw(pg ? 'sum' : fn)}(${x})`;
  const cols: RawBuilder<unknown>[] = groupKeys.map((k, i) => sql`${ref(`k${k}`)} AS ${sql.ref(`k${i}`)}`);
  spec.metrics.forEach((m, i) => {
    const a = (x: string) => sql.ref(`m${i}_${x}`);
    const v = metricVals[i];
    if (v === null || v === undefined) cols.push(sql`${agg('sum', ref('n'))} AS ${a('n')}`);
    else if (m.fn === 'count') cols.push(sql`${agg('sum', ref(`c${v}`))} AS ${a('n')}`);
    else {
      // The sum and its compensation apart: records.ts adds them (and, when '' and null groups
      // merge, those of both groups) with its compensated sum.
      cols.push(sql`${agg('total', ref(`s${v}`))} AS ${a('sum')}`);
      // PostgreSQL's sums are numerics that do not drift: no compensation.
      if (!pg) cols.push(sql`${agg('total', ref(`e${v}`))} AS ${a('comp')}`);
      if (m.fn === 'avg') cols.push(sql`${agg('sum', ref(`c${v}`))} AS ${a('cnt')}`);
    }
  });
  // The filter compiled against the key columns: a row of the rollup passes as its group's rows do.
  const keyCols: ColumnMap = {};
  for (const f of Object.keys(meta.columns)) {
    const c = columnOf(meta, f);
    const k = c ? def.keys.indexOf(c) : -1;
    if (k >= 0) keyCols[f] = { type: meta.columns[f]!.type, column: `k${k}` };
  }
  const where = new QueryCompiler(dialect, keyCols, 't', false).where(q.where);
  const by =
    exact || groupKeys.length === 0 ? sql`` : sql` GROUP BY ${sql.join(groupKeys.map((k) => ref(`k${k}`)))}`;
  if (pg) {
    // The rows read (a compaction is due when they far outnumber the groups); groups whose rows
    // all left net to n = 0.
    cols.push(sql`count(*) AS ${sql.ref(ROWS_READ)}`);
    const having = groupKeys.length ? sql` HAVING sum(t.n) > 0` : sql``;
    return sql<
      Record<string, unknown>
    >`SELECT ${sql.join(cols)} FROM ${sql.table(def.name)} t WHERE ${where}${by}${having}`;
  }
  return sql<
    Record<string, unknown>
  >`SELECT ${sql.join(cols)} FROM ${sql.table(def.name)} t WHERE t.n > 0 AND ${where}${by}`;
}

/** PostgreSQL: the column of a rollup read counting the rows it read. */
const ROWS_READ = 'rx_rows';

const q = (s: string) => `"${s}"`;
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The rollup table's value columns, in order. */
function valueColumns(vals: RollupVal[]): string[] {
  const out = ['n'];
  vals.forEach((v, i) => {
    out.push(`c${i}`);
    if (v.sum) out.push(`s${i}`, `e${i}`);
  });
  return out;
}

/** Neumaier's step adding `x` (not null) to the sum s with compensation e: the new e (old s read). */
function compensated(s: string, e: string, x: string): string {
  return `CASE WHEN abs(${s}) >= abs(${x}) THEN ${e} + ((${s} - (${s} + ${x})) + ${x}) ELSE ${e} + ((${x} - (${s} + ${x})) + ${s}) END`;
}

/**
 * The statements making a rollup: table, key index, fill, triggers (one transaction with the
 * bookkeeping row the caller adds). Names come from our own ids only.
 */
export function rollupStatements(name: string, table: string, shape: RollupShape): string[] {
  const { keys, vals } = shape;
  const R = q(name);
  const T = q(table);
  const keyCols = keys.map((_, i) => `k${i}`);
  const valCols = valueColumns(vals);
  const decl = [
    ...keyCols,
    ...valCols.map((c) => `${c} ${c.startsWith('s') || c.startsWith('e') ? 'REAL' : 'INTEGER'} NOT NULL`),
  ];
  const match = (ref: string) =>
    keys.length ? keys.map((k, i) => `k${i} IS ${ref}.${q(k)}`).join(' AND ') : '1';
  const value = (ref: string, v: RollupVal) => `${ref}.${q(v.column)}`;
  const present = (ref: string, v: RollupVal) =>
    v.text ? `(${value(ref, v)} IS NOT NULL AND ${value(ref, v)} <> '')` : `(${value(ref, v)} IS NOT NULL)`;
  // The group's first row: inserted when the add before it changed nothing (inside a trigger,
  // changes() counts the trigger's own last statement).
  const create = (ref: string) =>
    `INSERT INTO ${R} (${[...keyCols, ...valCols].join(', ')}) SELECT ${[
      ...keys.map((k) => `${ref}.${q(k)}`),
      '1',
      ...vals.flatMap((v) =>
        v.sum ? [present(ref, v), `coalesce(${value(ref, v)}, 0.0)`, '0.0'] : [present(ref, v)],
      ),
    ].join(', ')} WHERE changes() = 0`;
  const add = (ref: string) => {
    const set = ['n = n + 1'];
    vals.forEach((v, i) => {
      const x = value(ref, v);
      set.push(`c${i} = c${i} + ${present(ref, v)}`);
      if (v.sum)
        set.push(
          `s${i} = CASE WHEN ${x} IS NULL THEN s${i} ELSE s${i} + ${x} END`,
          `e${i} = CASE WHEN ${x} IS NULL THEN e${i} ELSE ${compensated(`s${i}`, `e${i}`, x)} END`,
        );
    });
    return `UPDATE ${R} SET ${set.join(', ')} WHERE ${match(ref)}`;
  };
  const remove = (ref: string) => {
    const set = ['n = n - 1'];
    vals.forEach((v, i) => {
      const x = value(ref, v);
      set.push(`c${i} = c${i} - ${present(ref, v)}`);
      // The last value leaving: the sum is exactly 0 again (c is the old count here).
      if (v.sum)
        set.push(
          `s${i} = CASE WHEN ${x} IS NULL THEN s${i} WHEN c${i} <= 1 THEN 0.0 ELSE s${i} - ${x} END`,
          `e${i} = CASE WHEN ${x} IS NULL THEN e${i} WHEN c${i} <= 1 THEN 0.0 ELSE ${compensated(`s${i}`, `e${i}`, `(-${x})`)} END`,
        );
    });
    return `UPDATE ${R} SET ${set.join(', ')} WHERE ${match(ref)}`;
  };
  const gone = (ref: string) => `DELETE FROM ${R} WHERE ${match(ref)} AND n <= 0`;
  const read = [...new Set([...keys, ...vals.map((v) => v.column)])];
  const changed = read.map((c) => `OLD.${q(c)} IS NOT NEW.${q(c)}`).join(' OR ');
  // A sum filled as one double would carry that double's rounding (the residual of total()), and a
  // later removal of the large values would leave it visible. So each value is split into its
  // integer part (summed exactly in 64-bit integers: values under 2^40, so no group of fewer than
  // 8 million rows overflows) and the rest (|x| < 1, summed compensated by total()); s is the
  // integer sum as a double, e what that rounding left plus the rest. Values of 2^40 (~1.1e12) and
  // more go to the rest whole: their fill is rounded once, as the scan's total is.
  const parts = (c: string) => {
    const hi = `(CASE WHEN abs(${c}) < 1099511627776.0 THEN CAST(${c} AS INTEGER) ELSE 0 END)`;
    const int = `coalesce(sum(${hi}), 0)`;
    return [
      `count(${c})`,
      `CAST(${int} AS REAL)`,
      `total(${c} - ${hi}) + (${int} - CAST(CAST(${int} AS REAL) AS INTEGER))`,
    ];
  };
  const fill = [
    ...keys.map(q),
    'count(*)',
    ...vals.flatMap((v) => (v.sum ? parts(q(v.column)) : [`count(NULLIF(${q(v.column)}, ''))`])),
  ];
  const out = [`CREATE TABLE ${R} (${decl.join(', ')})`];
  if (keys.length) out.push(`CREATE INDEX ${q(`${name}_k`)} ON ${R} (${keyCols.join(', ')})`);
  out.push(
    `INSERT INTO ${R} (${[...keyCols, ...valCols].join(', ')}) SELECT ${fill.join(', ')} FROM ${T}${
      keys.length ? ` GROUP BY ${keys.map(q).join(', ')}` : ''
    }`,
    `CREATE TRIGGER ${q(`${name}_i`)} AFTER INSERT ON ${T} BEGIN ${add('NEW')}; ${create('NEW')}; END`,
    `CREATE TRIGGER ${q(`${name}_d`)} AFTER DELETE ON ${T} BEGIN ${remove('OLD')}; ${gone('OLD')}; END`,
  );
  // A row count alone (no key, no value) reads no column: no update changes it.
  if (read.length)
    out.push(
      `CREATE TRIGGER ${q(`${name}_u`)} AFTER UPDATE OF ${read.map(q).join(', ')} ON ${T} WHEN ${changed} BEGIN ${remove('OLD')}; ${gone('OLD')}; ${add('NEW')}; ${create('NEW')}; END`,
    );
  return out;
}

/** A rollup as builders see it (beside the managed indexes). */
export interface ManagedRollup extends ManagedFigures {
  _id: string;
  kind: 'rollup';
  /** Group fields, in key order. */
  fields: Array<{ field: string }>;
  /** Fields counted or summed. */
  values: Array<{ field: string; sum: boolean }>;
}

function defOf(r: Pick<DataRollupsTable, 'id' | 'name' | 'shape' | 'keys' | 'vals'>): RollupDef {
  return {
    id: r.id,
    name: r.name,
    key: r.shape,
    keys: JSON.parse(r.keys) as string[],
    vals: JSON.parse(r.vals) as RollupVal[],
  };
}

/** A stored rollup for the builders' list (columns named by the fields holding them now). */
export function apiRollup(r: DataRollupsTable, meta: EntityMeta): ManagedRollup {
  const def = defOf(r);
  const fieldOf = new Map(meta.fields.map((f) => [meta.columns[f.code]?.column, f.code]));
  return {
    _id: r.id,
    kind: 'rollup',
    fields: def.keys.map((c) => ({ field: fieldOf.get(c) ?? c })),
    values: def.vals.map((v) => ({ field: fieldOf.get(v.column) ?? v.column, sum: v.sum })),
    ...managedFigures(r),
  };
}

/** The rollups of one database: recorded shapes, known rollups, builds, reads, use counts. */
export class Rollups {
  /** table → shape key → slow runs' ms. */
  private readonly stats = new Map<string, Map<string, number[]>>();
  /** table → its rollups, as read for one version of the table's schema. */
  private readonly defs = new Map<string, { version: number; list: Promise<RollupDef[]> }>();
  private readonly uses = new Map<string, number>();
  private readonly building = new Set<string>();
  /** PostgreSQL: writes heard per table since its rollups were last checked for compaction. */
  private readonly writes = new Map<string, number>();
  /** PostgreSQL: rows a rollup held after its last compaction, by rollup name. */
  private readonly compacted = new Map<string, number>();
  private readonly unlisten: (() => void) | null;
  /**
   * PostgreSQL: the last build's brief lock (tries; ms of the transaction that got it: its wait
   * plus the table and triggers made under it) and its fill's ms (benchmarks).
   */
  lastBuild: { lockTries: number; lockMs: number; fillMs: number } | null = null;

  constructor(private readonly host: RollupHost) {
    this.unlisten = host.dialect === 'postgres' ? onTableWrite((t) => this.wrote(t)) : null;
  }

  private get on(): boolean {
    const o = this.host.options;
    return o.enabled && o.rollups;
  }

  private get pg(): boolean {
    return this.host.dialect === 'postgres';
  }

  /** Stop hearing writes (the app closes). */
  close(): void {
    this.unlisten?.();
  }

  /** PostgreSQL: every WRITES_PER_CHECK writes to a table, check its rollups for compaction. */
  private wrote(table: string): void {
    if (!this.on) return;
    const n = (this.writes.get(table) ?? 0) + 1;
    if (n < WRITES_PER_CHECK) {
      if (this.writes.size >= 10_000 && !this.writes.has(table)) this.writes.clear();
      this.writes.set(table, n);
      return;
    }
    this.writes.delete(table);
    this.queueCompaction(table);
  }

  /** Queue a compaction check of a table's rollups (or of one of them) unless one is queued. */
  private queueCompaction(table: string, only?: RollupDef): void {
    const id = `compact|${only?.name ?? table}`;
    if (this.building.has(id)) return;
    this.building.add(id);
    this.host.enqueue(async () => {
      try {
        const defs = only
          ? [only]
          : (
              await this.host.db
                .selectFrom('data_rollups')
                .select(['id', 'name', 'shape', 'keys', 'vals'])
                .where('entity_id', '=', table.slice(2))
                .execute()
            ).map(defOf);
        for (const def of defs) await this.compact(def, !only);
      } finally {
        this.building.delete(id);
      }
    });
  }

  /**
   * PostgreSQL: fold a rollup's delta rows into one per group (rollup-pg.ts), in bounded steps.
   * `ifGrown`: only when it holds more than twice its rows after the last compaction. Skipped while
   * another process compacts it. Answers the rows it holds after.
   */
  async compact(def: RollupDef, ifGrown = false): Promise<number> {
    const db = this.host.db;
    const count = async () =>
      Number(
        (await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(def.name)}`.execute(db)).rows[0]!.n,
      );
    if (ifGrown && (await count()) <= 2 * (this.compacted.get(def.name) ?? 0) + ROWS_SLACK)
      return this.compacted.get(def.name) ?? 0;
    const statement = pgCompactStatement(def.name, def);
    for (let step = 0; step < 1000; step++) {
      const r = await db.transaction().execute(async (trx) => {
        const got = await sql<{
          ok: boolean;
        }>`SELECT pg_try_advisory_xact_lock(hashtext(${`rx:c:${def.name}`})) AS ok`.execute(trx);
        if (!got.rows[0]?.ok) return null;
        return (await sql<{ deleted: string; inserted: string }>`${sql.raw(statement)}`.execute(trx))
          .rows[0]!;
      });
      if (!r || Number(r.deleted) < COMPACT_STEP) break;
    }
    const left = await count();
    this.compacted.set(def.name, left);
    return left;
  }

  private forget(table: string): void {
    this.defs.delete(table);
  }

  private async defsOf(meta: EntityMeta): Promise<RollupDef[]> {
    const version = Number(meta.entity.updated_at);
    let d = this.defs.get(meta.table);
    if (!d || d.version !== version) {
      const list = this.host.db
        .selectFrom('data_rollups')
        .select(['id', 'name', 'shape', 'keys', 'vals'])
        .where('entity_id', '=', meta.entity.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
        .then((rows) => rows.map(defOf));
      d = { version, list };
      this.defs.set(meta.table, d);
      list.catch(() => this.forget(meta.table));
    }
    return d.list;
  }

  /**
   * The summary's rows read from a rollup serving it (named as the scan's GROUP BY rows), or null
   * when none does (the caller scans). Reads through `db`: inside a transaction, the rollup its own
   * writes' triggers kept.
   */
  async read(
    db: Kysely<DB>,
    meta: EntityMeta,
    nq: NormalizedQuery,
    spec: SummarySpec,
  ): Promise<Record<string, unknown>[] | null> {
    if (!this.on || nq.nothing) return null;
    let plan: Plan | null = null;
    for (const def of await this.defsOf(meta)) {
      const p = planFor(def, meta, nq, spec);
      if (p && (!plan || p.def.keys.length < plan.def.keys.length)) plan = p;
    }
    if (!plan) return null;
    let rows: Record<string, unknown>[];
    const statement = readStatement(plan, meta, nq, spec, this.host.dialect);
    // A failed statement ends a PostgreSQL transaction: inside one, the read is its own savepoint.
    const guarded = this.pg && db.isTransaction;
    try {
      if (guarded) await sql`SAVEPOINT rx_read`.execute(db);
      try {
        rows = (await statement.execute(db)).rows;
      } catch (err) {
        if (guarded) await sql`ROLLBACK TO SAVEPOINT rx_read`.execute(db);
        throw err;
      }
      if (guarded) await sql`RELEASE SAVEPOINT rx_read`.execute(db);
    } catch (err) {
      // Dropped meanwhile (another process, a schema change): read the list again, scan this time.
      this.forget(meta.table);
      this.host.onError(err);
      return null;
    }
    const id = plan.def.id;
    this.uses.set(id, (this.uses.get(id) ?? 0) + 1);
    if (this.uses.size > 200) void this.flushUses().catch((e) => this.host.onError(e));
    if (rows.length > GROWN_GROUPS && !this.building.has(id)) {
      this.building.add(id);
      this.host.enqueue(() => this.drop(id).finally(() => this.building.delete(id)));
    } else if (this.pg) {
      let read = 0;
      for (const r of rows) read += Number(r[ROWS_READ] ?? 0);
      if (read > ROWS_PER_GROUP * rows.length + ROWS_SLACK) this.queueCompaction(meta.table, plan.def);
    }
    return rows;
  }

  /** Record a scanned summary (ms: its cost, groups: the rows its GROUP BY found); may queue a build. */
  observe(meta: EntityMeta, nq: NormalizedQuery, spec: SummarySpec, ms: number, groups: number): void {
    if (!this.on || groups > MAX_GROUPS) return;
    const shape = rollupShape(meta, nq, spec);
    if (!shape) return;
    let t = this.stats.get(meta.table);
    if (!t) {
      t = new Map();
      this.stats.set(meta.table, t);
    }
    let slow = t.get(shape.key);
    if (!slow) {
      if (t.size >= 100) t.delete(t.keys().next().value as string);
      slow = [];
      t.set(shape.key, slow);
    }
    if (ms >= this.host.options.slowMs) {
      slow.push(ms);
      if (slow.length > 4 * this.host.options.recur) slow.shift();
    }
    const id = `${meta.table}|${shape.key}`;
    if (slow.length >= this.host.options.recur && !this.building.has(id)) {
      this.building.add(id);
      const cost = p50(slow);
      this.host.enqueue(() =>
        this.build(meta, shape, cost)
          .then(() => undefined)
          .finally(() => this.building.delete(id)),
      );
    }
  }

  /** Build the rollup of a shape unless the table has `maxRollups` (or one of this shape); answers its id. */
  async build(meta: EntityMeta, shape: RollupShape, costMs: number): Promise<string | null> {
    const db = this.host.db;
    const have = await db
      .selectFrom('data_rollups')
      .select(['shape'])
      .where('entity_id', '=', meta.entity.id)
      .execute();
    if (have.length >= this.host.options.maxRollups || have.some((r) => r.shape === shape.key)) return null;
    const entityId = meta.entity.id;
    const hash = createHash('sha256').update(`${meta.table}|${shape.key}`).digest('hex').slice(0, 10);
    const name = `rx_${entityId}_${hash}`;
    const now = Date.now();
    const id = newId(now);
    const row = [
      id,
      meta.entity.project_id,
      entityId,
      name,
      shape.key,
      JSON.stringify(shape.keys),
      JSON.stringify(shape.vals),
    ].map(lit);
    const book =
      `INSERT INTO data_rollups (id, project_id, entity_id, name, shape, keys, vals, pinned, uses, last_used_at, created_at, cost_ms, build_ms) ` +
      `VALUES (${row.join(', ')}, 0, 0, ${now}, ${now}, ${Math.round(costMs)}, 0)`;
    const ms = this.pg
      ? await this.buildPg(meta.table, shape, name, book)
      : await this.host.runScript([...rollupStatements(name, meta.table, shape), book], name);
    if (ms === null) return null;
    await db
      .updateTable('data_rollups')
      .set({ build_ms: Math.round(ms) })
      .where('id', '=', id)
      .execute();
    this.forget(meta.table);
    this.stats.get(meta.table)?.delete(shape.key);
    return id;
  }

  /**
   * PostgreSQL: make a rollup in its two transactions (rollup-pg.ts), holding the build's advisory
   * lock (another process building the same rollup skips it). Answers the fill's ms, or null when
   * it exists already.
   */
  private async buildPg(
    table: string,
    shape: RollupShape,
    name: string,
    book: string,
  ): Promise<number | null> {
    return this.host.db.connection().execute(async (conn) => {
      const key = `rx:b:${name}`;
      const got = await sql<{ ok: boolean }>`SELECT pg_try_advisory_lock(hashtext(${key})) AS ok`.execute(
        conn,
      );
      if (!got.rows[0]?.ok) return null;
      try {
        const known = async () =>
          (await conn.selectFrom('data_rollups').select('id').where('name', '=', name).executeTakeFirst()) !==
          undefined;
        if (await known()) return null;
        // Left by a build stopped between its transactions (no row: never read).
        if (await leftOver(conn, name))
          await this.briefly(conn, table, 'ACCESS EXCLUSIVE', async (trx) => {
            for (const s of pgDropStatements(name)) await sql.raw(s).execute(trx);
          });
        const lock = await createPg(conn, table, name, shape);
        const started = performance.now();
        try {
          await conn
            .transaction()
            .setIsolationLevel('repeatable read')
            .execute(async (trx) => {
              const snap = (await sql<{ s: string }>`SELECT pg_current_snapshot()::text AS s`.execute(trx))
                .rows[0]!.s;
              for (const s of pgFillStatements(name, table, shape, snap)) await sql.raw(s).execute(trx);
              await sql.raw(book).execute(trx);
            });
        } catch (err) {
          await this.briefly(conn, table, 'ACCESS EXCLUSIVE', async (trx) => {
            for (const s of pgDropStatements(name)) await sql.raw(s).execute(trx);
          }).catch(() => undefined);
          throw err;
        }
        const fillMs = performance.now() - started;
        this.lastBuild = { lockTries: lock.tries, lockMs: lock.ms, fillMs };
        return fillMs;
      } finally {
        await sql`SELECT pg_advisory_unlock(hashtext(${key}))`.execute(conn);
      }
    });
  }

  /**
   * PostgreSQL: run `fn` in a transaction holding a lock on the record table taken with a short
   * lock_timeout (LOCK_WAIT_MS), tried again until it is had: whatever queues behind the lock (reads
   * for ACCESS EXCLUSIVE, writes for either) waits that long at most. No table: no lock.
   */
  private async briefly(
    db: Kysely<DB>,
    table: string,
    mode: 'SHARE ROW EXCLUSIVE' | 'ACCESS EXCLUSIVE',
    fn: (trx: Kysely<DB>) => Promise<void>,
  ): Promise<{ tries: number; ms: number }> {
    return untilLocked(() =>
      db.transaction().execute(async (trx) => {
        await sql.raw(`SET LOCAL lock_timeout = '${LOCK_WAIT_MS}ms'`).execute(trx);
        const there = await sql<{ t: string | null }>`SELECT to_regclass(${q(table)})::text AS t`.execute(
          trx,
        );
        if (there.rows[0]?.t) await sql.raw(`LOCK TABLE ${q(table)} IN ${mode} MODE`).execute(trx);
        await fn(trx);
      }),
    );
  }

  /** Drop one rollup: its triggers, table and row, in one transaction. */
  async drop(id: string): Promise<void> {
    const db = this.host.db;
    const row = await db.selectFrom('data_rollups').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return;
    const objects = async (trx: Kysely<DB>) => {
      await dropRollupObjects(trx as unknown as Kysely<unknown>, row.name);
      await trx.deleteFrom('data_rollups').where('id', '=', id).execute();
    };
    if (this.pg) await this.briefly(db, `e_${row.entity_id}`, 'ACCESS EXCLUSIVE', objects);
    else await db.transaction().execute(objects);
    this.compacted.delete(row.name);
    this.forget(`e_${row.entity_id}`);
    this.stats.get(`e_${row.entity_id}`)?.delete(row.shape);
    this.uses.delete(id);
  }

  /** Write the use counts gathered since the last flush. */
  async flushUses(): Promise<void> {
    await flushUseCounts(this.host.db, 'data_rollups', this.uses);
  }

  /** Drop unpinned rollups unused for `unusedMs` (and those of tables gone); answers how many. */
  async sweep(now = Date.now()): Promise<number> {
    await this.flushUses();
    let n = await sweepUnused(this.host.db, 'data_rollups', this.host.options.unusedMs, now, (id) =>
      this.drop(id),
    );
    if (this.pg) n += await this.dropOrphans();
    return n;
  }

  /**
   * PostgreSQL: drop the rollup objects no data_rollups row names (a build stopped between its two
   * transactions by a crash: its triggers would add deltas forever), unless a build holds them.
   */
  private async dropOrphans(): Promise<number> {
    const db = this.host.db;
    const found = await sql<{ name: string }>`
      SELECT left(proname, -3) AS name FROM pg_proc
      WHERE pronamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) AND proname ~ '^rx_[0-9a-f]{24}_[0-9a-f]{10}_fi$'
        AND left(proname, -3) NOT IN (SELECT name FROM data_rollups)`.execute(db);
    let n = 0;
    for (const { name } of found.rows) {
      const dropped = await db.connection().execute(async (conn) => {
        const key = `rx:b:${name}`;
        const got = await sql<{
          ok: boolean;
        }>`SELECT pg_try_advisory_lock(hashtext(${key})) AS ok`.execute(conn);
        if (!got.rows[0]?.ok) return false;
        try {
          const known = await conn
            .selectFrom('data_rollups')
            .select('id')
            .where('name', '=', name)
            .executeTakeFirst();
          if (known) return false;
          await this.briefly(conn, `e_${name.slice(3, 27)}`, 'ACCESS EXCLUSIVE', async (trx) => {
            for (const s of pgDropStatements(name)) await sql.raw(s).execute(trx);
          });
          return true;
        } finally {
          await sql`SELECT pg_advisory_unlock(hashtext(${key}))`.execute(conn);
        }
      });
      if (dropped) n++;
    }
    return n;
  }
}

/**
 * PostgreSQL: transaction A of a build as one script (one round trip): the table and functions
 * first, then the lock on the record table (taken with LOCK_WAIT_MS of lock_timeout, tried again
 * until it is had) and the triggers, so writers queue behind it for the lock wait at most and the
 * lock is held for the triggers' creation only. Answers the tries and the ms of the one that ran.
 */
async function createPg(
  conn: Kysely<DB>,
  table: string,
  name: string,
  shape: RollupShape,
): Promise<{ tries: number; ms: number }> {
  const statements = pgCreateStatements(name, table, shape);
  const triggers = statements.filter((s) => s.startsWith('CREATE TRIGGER'));
  const script = [
    'BEGIN',
    `SET LOCAL lock_timeout = '${LOCK_WAIT_MS}ms'`,
    ...statements.filter((s) => !s.startsWith('CREATE TRIGGER')),
    `LOCK TABLE ${q(table)} IN SHARE ROW EXCLUSIVE MODE`,
    ...triggers,
    'COMMIT',
  ].join(';\n');
  return untilLocked(async () => {
    try {
      await sql.raw(script).execute(conn);
    } catch (err) {
      await sql
        .raw('ROLLBACK')
        .execute(conn)
        .catch(() => undefined);
      throw err;
    }
  });
}

/**
 * PostgreSQL: run `attempt` (a transaction taking a lock with LOCK_WAIT_MS of lock_timeout) until
 * it gets its lock: a lock timeout (55P03) is tried again after a pause doubling from 10 ms to 1 s,
 * with jitter, for LOCK_TRY_MS at most. Answers the tries and the ms of the one that ran.
 */
async function untilLocked(attempt: () => Promise<unknown>): Promise<{ tries: number; ms: number }> {
  const since = performance.now();
  let tries = 0;
  for (let pause = 10; ; pause = Math.min(2 * pause, 1000)) {
    tries++;
    const began = performance.now();
    try {
      await attempt();
      return { tries, ms: performance.now() - began };
    } catch (err) {
      if ((err as { code?: string }).code !== '55P03' || performance.now() - since > LOCK_TRY_MS) throw err;
      await sleep(pause + Math.random() * pause);
    }
  }
}

/** PostgreSQL: whether a rollup's table or trigger functions are there. */
async function leftOver(db: Kysely<DB>, name: string): Promise<boolean> {
  const r = await sql<{ there: boolean }>`
    SELECT to_regclass(${q(name)}) IS NOT NULL OR EXISTS (
      SELECT 1 FROM pg_proc WHERE pronamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) AND proname LIKE ${`${name}_f_`}
    ) AS there`.execute(db);
  return r.rows[0]?.there === true;
}
