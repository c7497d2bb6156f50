/**
 * Indexes that follow use. Every page query and summary on a builder table is reduced to its shape
 * (equality fields, the range field, the sort; for summaries the group and metric fields) and its
 * cost is recorded. When one shape has come back slow often enough, the compound (page) or covering
 * (summary) index serving it is built in the background: PostgreSQL `CREATE INDEX CONCURRENTLY`
 * (reads and writes go on), SQLite in a child process with its own connection (see below). At most
 * `maxPerTable` per table; an index not used for `unusedMs` is dropped unless a builder pinned it.
 * The indexes live in `data_indexes` (migration 012) with their use counts, and builders list, pin
 * and drop them (index-plugin.ts).
 *
 * A grouped summary no index can make fast enough (a covering index is still a scan of every row)
 * gets a rollup instead, recorded, built, swept and listed the same way on this builder's queue
 * (rollup.ts; on PostgreSQL rollup-pg.ts).
 *
 * SQLite builds never make a write wait long. SQLite has one writer and CREATE INDEX holds the write
 * lock until it commits (seconds at a million rows, far more under load), and it cannot be split into
 * steps. So a build runs in a child process (sqlite-index-worker.mjs) and is *preemptible*: the first
 * write to arrive at the write gate (db/sqlite-gate.ts) kills the child and goes on as soon as it is
 * gone (WAL drops the build's uncommitted frames; the OS drops its locks), and the build is tried
 * again once writes have been quiet for `quietMs`. Reads are never blocked (WAL). A table that is
 * never quiet would never get its index, so after `deferMs` of failed tries the build runs anyway and
 * writes wait for it as they would for any long transaction (the cap). Other options weighed: a
 * worker thread cannot be stopped inside the native CREATE INDEX (terminate waits for it to return);
 * better-sqlite3 exposes neither sqlite3_interrupt nor a progress handler; a shadow copy of the
 * table would have to replay the writes made meanwhile and doubles the disk used.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { type Kysely, sql } from 'kysely';
import { newId } from '../../shared/id.ts';
import type { Cond, NormalizedQuery, SummarySpec } from '../../shared/query/index.ts';
import type { Database } from '../db/index.ts';
import type { DB } from '../db/schema.ts';
import { gateOf } from '../db/sqlite-gate.ts';
import {
  BACKFILLED_INDEX_TYPES,
  entityTable,
  type FieldType,
  fieldColumn,
  fieldIndexName,
  fieldIndexStatement,
} from './ddl.ts';
import { flushUseCounts, type ManagedFigures, managedFigures, p50, sweepUnused } from './managed.ts';
import type { EntityMeta } from './meta.ts';
import { Rollups } from './rollup.ts';

export interface AutoIndexOptions {
  /** A run at least this slow (ms) counts toward building an index for its shape. */
  slowMs: number;
  /** Slow runs of one shape before its index is built. */
  recur: number;
  /** Managed indexes per table at most. */
  maxPerTable: number;
  /** Unpinned indexes unused this long (ms) are dropped. */
  unusedMs: number;
  /** Off: shapes are neither recorded nor indexed. */
  enabled: boolean;
  /** SQLite: a build stopped by a write is tried again once no write came for this long (ms). */
  quietMs: number;
  /** SQLite: after trying this long (ms), a build runs even if writes must wait for it. */
  deferMs: number;
  /** Off: summaries are neither served by nor recorded for rollups (rollup.ts). */
  rollups: boolean;
  /** Rollups per table at most (each costs every write to its table a few statements). */
  maxRollups: number;
}

export const AUTO_INDEX_DEFAULTS: AutoIndexOptions = {
  slowMs: 25,
  recur: 3,
  maxPerTable: 6,
  unusedMs: 14 * 24 * 3600_000,
  enabled: true,
  quietMs: 2000,
  deferMs: 10 * 60_000,
  rollups: true,
  maxRollups: 3,
};

/** What a SQLite build is doing, for `AutoIndexer.onStage` (tests and benchmarks). */
export type BuildStage = 'running' | 'preempted' | 'done';

/** One column of an index, in order. */
export interface IndexColumn {
  field: string;
  column: string;
  order?: 'asc' | 'desc';
  /** PostgreSQL: sort keys on text compare in code point order (`COLLATE "C"`), like the ORDER BY. */
  collateC?: boolean;
}

export interface Shape {
  kind: 'query' | 'summary';
  key: string;
  columns: IndexColumn[];
}

interface ShapeStat {
  runs: number;
  slow: number[];
  /** The shape itself (a grouping asked later may build it: `expectGrouped`). */
  shape: Shape;
}

/** How long a grouping asked of a table predicts its pages' order (ms). */
const GROUPED_MS = 10 * 60_000;
/** Groupings remembered per table at most. */
const GROUPED_MAX = 50;

const TEXTLIKE_SORT = new Set(['text', 'option', 'time', 'relate', '_id']);

function flatAnd(c: Cond | null, out: Cond[]): boolean {
  if (!c) return true;
  if (c.kind === 'and') {
    for (const i of c.items) if (!flatAnd(i, out)) return false;
    return true;
  }
  out.push(c);
  return true;
}

/** The equality and range fields of a filter's top-level AND (OR branches are not index-served). */
function filterParts(q: NormalizedQuery): { eq: string[]; range: string | null } {
  const preds: Cond[] = [];
  flatAnd(q.where, preds);
  const eq = new Set<string>();
  let range: string | null = null;
  for (const p of preds) {
    switch (p.kind) {
      case 'text':
        if (p.op === 'eq') eq.add(p.field);
        break;
      case 'number':
        if (p.op === 'eq') eq.add(p.field);
        else if (p.op !== 'ne' && p.op !== 'notbetween') range ??= p.field;
        break;
      case 'date':
        if (p.op === 'in') range ??= p.field;
        break;
      case 'time':
      case 'boolean':
        eq.add(p.field);
        break;
      case 'relate':
      case 'option':
        if (p.op === 'in' && p.value.length <= 4) eq.add(p.field);
        break;
      default:
        break;
    }
  }
  return { eq: [...eq].sort(), range };
}

function colOf(meta: EntityMeta, field: string): IndexColumn | null {
  if (field === '_id') return { field, column: '_id' };
  const c = meta.columns[field];
  if (!c || c.type === 'collection' || c.type === 'options') return null;
  return { field, column: c.column };
}

/**
 * The shape of a page query and the index serving it: equality columns, then the sort keys in
 * their ORDER BY form and `_id` (the final tie-break), so the index yields rows in page order;
 * without a sort, the range column after the equalities. Null when nothing is worth an index.
 */
export function queryShape(meta: EntityMeta, q: NormalizedQuery, pg: boolean): Shape | null {
  if (q.nothing) return null;
  const { eq, range } = filterParts(q);
  const columns: IndexColumn[] = [];
  for (const f of eq) {
    const c = colOf(meta, f);
    if (c) columns.push(c);
  }
  const sort = q.sort.filter((k) => colOf(meta, k.field) !== null && !eq.includes(k.field));
  // Keys after `_id` order nothing (`_id` sets every row apart): the ORDER BY stops there too.
  const byId = sort.findIndex((k) => k.field === '_id');
  if (byId >= 0) sort.length = byId + 1;
  if (sort.length) {
    for (const k of sort) {
      const c = colOf(meta, k.field)!;
      const type = k.field === '_id' ? '_id' : meta.columns[k.field]!.type;
      columns.push({ ...c, order: k.order, collateC: pg && TEXTLIKE_SORT.has(type) });
    }
    if (!sort.some((k) => k.field === '_id'))
      columns.push({ field: '_id', column: '_id', order: 'asc', collateC: pg });
  } else if (range && !eq.includes(range)) {
    const c = colOf(meta, range);
    if (c) columns.push(c);
  }
  // Nothing to index, or only `_id`, which the primary key serves in either direction (on
  // PostgreSQL it is in the "C" collation, the ORDER BY's: ddl.ts).
  if (columns.length === 0 || columns.every((c) => c.field === '_id')) return null;
  if (columns.length > 8) return null;
  const key = `q|${columns.map((c) => `${c.field}${c.order ? `:${c.order}` : ''}`).join(',')}`;
  return { kind: 'query', key, columns };
}

/**
 * The start of the page shape key of a view grouped by `group` under `q`'s filter: its pages sort
 * by the group fields (then the user's sort, then `_id`), so their shape keys begin with this
 * followed by a comma. Null when no such shape would be indexed.
 */
export function groupedPrefix(meta: EntityMeta, q: NormalizedQuery, group: readonly string[]): string | null {
  const shape = queryShape(
    meta,
    { ...q, sort: group.map((field) => ({ field, order: 'asc' as const })) },
    false,
  );
  const end = ',_id:asc';
  if (!shape?.key.endsWith(end) || shape.columns.length < 2) return null;
  return `${shape.key.slice(0, -end.length)},`;
}

/** The covering index of a grouped summary: equality columns, group columns, metric columns. */
export function summaryShape(meta: EntityMeta, q: NormalizedQuery, spec: SummarySpec): Shape | null {
  if (q.nothing || !(spec.group?.length || spec.metrics.some((m) => m.field))) return null;
  const { eq, range } = filterParts(q);
  const fields: string[] = [...eq, ...(spec.group ?? [])];
  if (range) fields.push(range);
  for (const m of spec.metrics) if (m.field) fields.push(m.field);
  const seen = new Set<string>();
  const columns: IndexColumn[] = [];
  for (const f of fields) {
    if (seen.has(f)) continue;
    seen.add(f);
    const c = colOf(meta, f);
    if (c) columns.push(c);
  }
  if (columns.length === 0 || columns.length > 8) return null;
  return { kind: 'summary', key: `s|${columns.map((c) => c.field).join(',')}`, columns };
}

/**
 * The shape keys an index serves: its own, and for a builder's index (`m|…`) the query shape of the
 * same columns (`q|…`), so the queries it serves count as its uses and do not build a second one.
 */
function servedKeys(key: string): string[] {
  return key.startsWith('m|') ? [key, `q|${key.slice(2)}`] : [key];
}

/** A managed index as builders see it. */
export interface ManagedIndex extends ManagedFigures {
  _id: string;
  kind: string;
  fields: Array<{ field: string; order?: string }>;
}

export function apiIndex(r: DB['data_indexes']): ManagedIndex {
  const cols = JSON.parse(r.columns) as IndexColumn[];
  return {
    _id: r.id,
    kind: r.kind,
    fields: cols.map((c) => (c.order ? { field: c.field, order: c.order } : { field: c.field })),
    ...managedFigures(r),
  };
}

/** The index DDL for a shape on a table. */
function indexSql(name: string, table: string, columns: IndexColumn[], pg: boolean) {
  const cols = columns.map((c) => {
    let s = `"${c.column}"`;
    if (pg && c.collateC) s += ' COLLATE "C"';
    // `_id` is never null: no null order, as in the ORDER BY (sql-query.ts).
    if (c.column === '_id') s += c.order === 'desc' ? ' DESC' : c.order === 'asc' && pg ? ' ASC' : '';
    else if (c.order === 'desc') s += pg ? ' DESC NULLS LAST' : ' DESC';
    else if (c.order === 'asc' && pg) s += ' ASC NULLS FIRST';
    return s;
  });
  return `CREATE INDEX ${pg ? 'CONCURRENTLY ' : ''}IF NOT EXISTS "${name}" ON "${table}" (${cols.join(', ')})`;
}

/** A DDL statement running in a child process; `kill` stops it and `done` then answers 'killed'. */
interface ChildDdl {
  done: Promise<'ok' | 'killed'>;
  kill(): void;
}

const INDEX_WORKER = fileURLToPath(new URL('./sqlite-index-worker.mjs', import.meta.url));

function sqliteChild(file: string, statement: string): ChildDdl {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, [INDEX_WORKER, JSON.stringify({ file, statement, busyMs: 30_000 })], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env,
  });
  let killed = false;
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => {
    if (stderr.length < 4000) stderr += d;
  });
  const done = new Promise<'ok' | 'killed'>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (killed) resolve('killed');
      else if (code === 0) resolve('ok');
      else reject(new Error(stderr || `index build stopped (${code})`));
    });
  });
  return {
    done,
    kill() {
      if (killed) return;
      killed = true;
      child.kill('SIGKILL');
    },
  };
}

/** The per-database recorder and builder (one per app; `autoIndexOf(db)` finds it for data calls). */
export class AutoIndexer {
  readonly options: AutoIndexOptions;
  /** table → shape key → stats. */
  private readonly stats = new Map<string, Map<string, ShapeStat>>();
  /** table → page shape key prefix of a grouping asked lately (`groupedPrefix`) → when. */
  private readonly grouped = new Map<string, Map<string, number>>();
  /** table → shape key → index row id (known managed indexes). */
  private known = new Map<string, Map<string, string>>();
  private loaded: Promise<void> | null = null;
  /** Uses not yet written, by index id. */
  private readonly uses = new Map<string, number>();
  private readonly queue: Array<() => Promise<void>> = [];
  private building: Promise<void> | null = null;
  private readonly building_keys = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly stop = new AbortController();
  private child: ChildDdl | null = null;
  /** Called as SQLite builds run, are stopped by a write, and finish (tests and benchmarks). */
  onStage: ((stage: BuildStage, name: string) => void) | null = null;
  /** The rollups of grouped summaries (rollup.ts): built on this builder's queue, the same way. */
  readonly rollups: Rollups;

  constructor(
    private readonly database: Pick<Database, 'db' | 'dialect' | 'sqlite'>,
    options: Partial<AutoIndexOptions> = {},
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.options = { ...AUTO_INDEX_DEFAULTS, ...options };
    const database_ = this.database;
    this.rollups = new Rollups({
      get db() {
        return database_.db;
      },
      dialect: database_.dialect,
      options: this.options,
      enqueue: (job) => this.enqueue(job),
      runScript: (statements, name) => this.runScript(statements, name),
      onError: (err) => this.onError(err),
    });
  }

  private get db(): Kysely<DB> {
    return this.database.db;
  }

  private get pg(): boolean {
    return this.database.dialect === 'postgres';
  }

  /** Start the hourly disuse sweep and the use-count flush. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(
      () => {
        void this.flushUses()
          .then(() => this.sweep())
          .then(() => this.rollups.sweep())
          .catch(this.onError);
      },
      Math.min(3600_000, Math.max(60_000, this.options.unusedMs / 10)),
    );
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.rollups.close();
    this.queue.length = 0;
    this.stop.abort();
    this.child?.kill();
    await this.building?.catch(() => undefined);
    await this.flushUses().catch(() => undefined);
    await this.rollups.flushUses().catch(() => undefined);
  }

  private async load(): Promise<void> {
    this.loaded ??= (async () => {
      const rows = await this.db.selectFrom('data_indexes').select(['id', 'entity_id', 'shape']).execute();
      const known = new Map<string, Map<string, string>>();
      for (const r of rows) {
        const t = `e_${r.entity_id}`;
        let m = known.get(t);
        if (!m) {
          m = new Map();
          known.set(t, m);
        }
        for (const k of servedKeys(r.shape)) m.set(k, r.id);
      }
      this.known = known;
    })();
    return this.loaded;
  }

  /** Record one run of a shape (ms: its cost); may queue an index build. Never throws. */
  observe(meta: EntityMeta, shape: Shape | null, ms: number): void {
    if (!shape || !this.options.enabled || this.closed) return;
    void this.load()
      .then(() => {
        const known = this.known.get(meta.table)?.get(shape.key);
        if (known) {
          this.uses.set(known, (this.uses.get(known) ?? 0) + 1);
          if (this.uses.size > 200) void this.flushUses().catch(this.onError);
          return;
        }
        let t = this.stats.get(meta.table);
        if (!t) {
          t = new Map();
          this.stats.set(meta.table, t);
        }
        let s = t.get(shape.key);
        if (!s) {
          if (t.size >= 200) t.delete(t.keys().next().value as string);
          s = { runs: 0, slow: [], shape };
          t.set(shape.key, s);
        }
        s.runs++;
        if (ms >= this.options.slowMs) s.slow.push(ms);
        if (s.slow.length >= this.options.recur || (s.slow.length && this.isGrouped(meta.table, shape.key)))
          this.buildOnce(meta, s);
      })
      .catch(this.onError);
  }

  /**
   * A grouped summary of `q`'s rows was asked (answered from the cache or not). A grouped view pages
   * in the order of its group fields with every page turn, reload and visit, so that order is not a
   * one-off: its first slow page builds its index at once (`recur` slow runs are not waited for),
   * whether that page ran before this call or runs later. Never throws.
   */
  expectGrouped(meta: EntityMeta, q: NormalizedQuery, group: readonly string[]): void {
    if (!this.options.enabled || this.closed || q.nothing || group.length === 0) return;
    const prefix = groupedPrefix(meta, q, group);
    if (!prefix) return;
    void this.load()
      .then(() => {
        let g = this.grouped.get(meta.table);
        if (!g) {
          g = new Map();
          this.grouped.set(meta.table, g);
        }
        g.delete(prefix);
        if (g.size >= GROUPED_MAX) g.delete(g.keys().next().value as string);
        g.set(prefix, Date.now());
        // A page of the grouping that already ran slow (the page call came first).
        for (const [key, s] of this.stats.get(meta.table) ?? [])
          if (key.startsWith(prefix) && s.slow.length) this.buildOnce(meta, s);
      })
      .catch(this.onError);
  }

  /** Whether a managed index serves this shape. */
  async serves(table: string, key: string): Promise<boolean> {
    await this.load();
    return this.known.get(table)?.has(key) ?? false;
  }

  /** Whether a page shape key is a recent grouping's order. */
  private isGrouped(table: string, key: string): boolean {
    const now = Date.now();
    for (const [prefix, at] of this.grouped.get(table) ?? [])
      if (now - at < GROUPED_MS && key.startsWith(prefix)) return true;
    return false;
  }

  /** Queue the build of a watched shape's index unless it is queued already. */
  private buildOnce(meta: EntityMeta, s: ShapeStat): void {
    const id = `${meta.table}|${s.shape.key}`;
    if (this.building_keys.has(id)) return;
    this.building_keys.add(id);
    const cost = p50(s.slow);
    this.enqueue(() =>
      this.build(meta, s.shape, cost)
        .then(() => undefined)
        .finally(() => this.building_keys.delete(id)),
    );
  }

  /** Recorded shapes of a table not (yet) indexed: runs and slow runs (for the builder's list). */
  shapesOf(table: string): Array<{ shape: string; runs: number; slow: number; p50Ms: number }> {
    return [...(this.stats.get(table) ?? new Map<string, ShapeStat>()).entries()].map(([k, s]) => ({
      shape: k,
      runs: s.runs,
      slow: s.slow.length,
      p50Ms: Math.round(p50(s.slow)),
    }));
  }

  private enqueue(job: () => Promise<void>): void {
    if (this.closed) return;
    this.queue.push(job);
    if (!this.building) this.building = this.drain();
  }

  private async drain(): Promise<void> {
    try {
      for (let job = this.queue.shift(); job && !this.closed; job = this.queue.shift()) {
        await job().catch(this.onError);
      }
    } finally {
      this.building = null;
    }
  }

  /** Wait until every queued build ran (tests and benchmarks). */
  async idle(): Promise<void> {
    await this.load();
    await new Promise((resolve) => setImmediate(resolve));
    while (this.building) await this.building;
  }

  /**
   * A builder's index on chosen fields (/system/data/{entity}), built now and pinned (never dropped
   * for disuse). Answers its id; 'fields' when a field cannot be indexed, 'exists' when an index on
   * these fields is there, 'limit' when the table has `maxPerTable` indexes.
   */
  async create(
    meta: EntityMeta,
    fields: { field: string; order?: 'asc' | 'desc' }[],
  ): Promise<string | 'fields' | 'exists' | 'limit'> {
    await this.load();
    const columns: IndexColumn[] = [];
    for (const f of fields) {
      const c = colOf(meta, f.field);
      if (!c || c.field === '_id') return 'fields';
      columns.push(f.order ? { ...c, order: f.order } : c);
    }
    const key = `m|${columns.map((c) => `${c.field}${c.order ? `:${c.order}` : ''}`).join(',')}`;
    const same = await this.db
      .selectFrom('data_indexes')
      .select('id')
      .where('entity_id', '=', meta.entity.id)
      .where('shape', '=', key)
      .executeTakeFirst();
    if (same) return 'exists';
    const id = await this.build(meta, { kind: 'query', key, columns }, 0, 1);
    return id ?? 'limit';
  }

  private async build(meta: EntityMeta, shape: Shape, costMs: number, pinned = 0): Promise<string | null> {
    const entityId = meta.entity.id;
    const count = await this.db
      .selectFrom('data_indexes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('entity_id', '=', entityId)
      .executeTakeFirst();
    if (Number(count?.n ?? 0) >= this.options.maxPerTable) return null;
    const hash = createHash('sha256').update(`${meta.table}|${shape.key}`).digest('hex').slice(0, 10);
    const name = `ax_${entityId}_${hash}`;
    // The time of the run that built it (on SQLite not the waits for quiet nor stopped runs).
    const buildMs = Math.round(
      await this.runDdl(indexSql(name, meta.table, shape.columns, this.pg), name, true),
    );
    const now = Date.now();
    const id = newId(now);
    await this.db
      .insertInto('data_indexes')
      .values({
        id,
        project_id: meta.entity.project_id,
        entity_id: entityId,
        name,
        shape: shape.key,
        columns: JSON.stringify(shape.columns),
        kind: pinned ? 'manual' : shape.kind,
        pinned,
        uses: 0,
        last_used_at: now,
        created_at: now,
        cost_ms: Math.round(costMs),
        build_ms: buildMs,
      })
      .execute();
    let m = this.known.get(meta.table);
    if (!m) {
      m = new Map();
      this.known.set(meta.table, m);
    }
    for (const k of servedKeys(shape.key)) {
      m.set(k, id);
      this.stats.get(meta.table)?.delete(k);
    }
    if (!this.pg) await sql`ANALYZE ${sql.table(meta.table)}`.execute(this.db).catch(() => undefined);
    // PostgreSQL reads a covering index without the table only for pages its visibility map marks
    // all-visible; a freshly loaded table has none, so the planner scans the table instead (measured
    // by tests/bench/summary-plan.ts). VACUUM sets the map (reads and writes go on meanwhile).
    else if (shape.kind === 'summary')
      await sql`VACUUM (ANALYZE) ${sql.table(meta.table)}`.execute(this.db).catch(this.onError);
    return id;
  }

  /** Run a DDL statement; answers how long its (last, successful) run took in ms. */
  private async runDdl(statement: string, name: string, preemptible = false): Promise<number> {
    const file = this.database.sqlite?.name;
    const started = performance.now();
    if (this.pg) {
      try {
        await sql.raw(statement).execute(this.db);
      } catch (err) {
        // A failed concurrent build leaves an invalid index behind.
        await sql
          .raw(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`)
          .execute(this.db)
          .catch(() => undefined);
        throw err;
      }
    } else if (file && file !== ':memory:' && file !== '') {
      return this.sqliteDdl(file, statement, name, preemptible);
    } else {
      await sql.raw(statement).execute(this.db);
    }
    return performance.now() - started;
  }

  /**
   * Run statements as one write transaction (a rollup's table, fill, triggers and row): on a SQLite
   * file in the child process like an index build (preemptible: a write stops it, it is tried again
   * once writes are quiet); otherwise here. Answers the ms of the run that committed.
   */
  async runScript(statements: string[], name: string): Promise<number> {
    const file = this.database.sqlite?.name;
    if (!this.pg && file && file !== ':memory:' && file !== '')
      return this.sqliteDdl(file, `BEGIN IMMEDIATE;\n${statements.join(';\n')};\nCOMMIT;`, name, true);
    const started = performance.now();
    await this.db.transaction().execute(async (trx) => {
      for (const s of statements) await sql.raw(s).execute(trx);
    });
    return performance.now() - started;
  }

  /**
   * Run a DDL statement in a child process once no transaction of ours is open. Preemptible (index
   * builds): a write arriving meanwhile kills it, and it is tried again after `quietMs` without
   * writes, until `deferMs` has passed; then (and for drops, which are short) writes wait for it.
   */
  private async sqliteDdl(
    file: string,
    statement: string,
    name: string,
    preemptible: boolean,
  ): Promise<number> {
    const gate = gateOf(this.database.sqlite!);
    const since = performance.now();
    for (;;) {
      if (this.closed) throw new Error('index builder closed');
      const force = !preemptible || performance.now() - since >= this.options.deferMs;
      if (!force) await gate.quiet(this.options.quietMs, this.stop.signal);
      let run: ChildDdl | null = null;
      let cancelled = false;
      let ranFrom = 0;
      const result = await gate.exclusive(
        async () => {
          if (cancelled || this.closed) return 'killed';
          ranFrom = performance.now();
          const child = sqliteChild(file, statement);
          run = child;
          this.child = child;
          this.onStage?.('running', name);
          try {
            return await child.done;
          } finally {
            this.child = null;
          }
        },
        force
          ? undefined
          : () => {
              cancelled = true;
              (run as ChildDdl | null)?.kill();
            },
      );
      if (result === 'ok') {
        this.onStage?.('done', name);
        return performance.now() - ranFrom;
      }
      this.onStage?.('preempted', name);
    }
  }

  /**
   * Number and date fields get a single-column index when made (ddl.ts), but tables made before that
   * lack it. This finds those fields and queues their index, one at a time, on the same builder as
   * managed indexes (so on SQLite a write stops the build; on PostgreSQL CONCURRENTLY). Run at every
   * start; once the indexes are there it queues nothing. Answers how many were queued.
   */
  async backfillDefaults(): Promise<number> {
    const fields = await this.db
      .selectFrom('data_fields')
      .select(['entity_id', 'id', 'type'])
      .where('type', 'in', [...BACKFILLED_INDEX_TYPES])
      .execute();
    if (fields.length === 0 || this.closed) return 0;
    const have = new Set(
      this.pg
        ? (
            await sql<{
              name: string;
            }>`SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema()`.execute(this.db)
          ).rows.map((r) => r.name)
        : (
            await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index'`.execute(this.db)
          ).rows.map((r) => r.name),
    );
    let n = 0;
    for (const f of fields) {
      const t = entityTable(f.entity_id);
      const c = fieldColumn(f.id);
      const name = fieldIndexName(t, c);
      const statement = fieldIndexStatement(this.database.dialect, t, c, f.type as FieldType, true);
      if (!statement || have.has(name)) continue;
      n++;
      this.enqueue(() => this.runDdl(statement, name, true).then(() => undefined));
    }
    return n;
  }

  /** Write the use counts gathered since the last flush. */
  async flushUses(): Promise<void> {
    await flushUseCounts(this.db, 'data_indexes', this.uses);
  }

  /** Drop unpinned indexes unused for `unusedMs` (and rows of tables gone); answers how many. */
  async sweep(now = Date.now()): Promise<number> {
    await this.flushUses();
    return sweepUnused(this.db, 'data_indexes', this.options.unusedMs, now, (id) => this.drop(id));
  }

  /** Drop one managed index (and forget its shape's history, so it is not rebuilt at once). */
  async drop(id: string): Promise<void> {
    const row = await this.db.selectFrom('data_indexes').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return;
    const stmt = `DROP INDEX ${this.pg ? 'CONCURRENTLY ' : ''}IF EXISTS "${row.name}"`;
    await this.runDdl(stmt, row.name);
    await this.db.deleteFrom('data_indexes').where('id', '=', id).execute();
    const t = `e_${row.entity_id}`;
    for (const k of servedKeys(row.shape)) {
      this.known.get(t)?.delete(k);
      this.stats.get(t)?.delete(k);
    }
    this.uses.delete(id);
  }
}

const indexers = new WeakMap<object, AutoIndexer>();

export function registerAutoIndex(db: Kysely<DB>, indexer: AutoIndexer): void {
  indexers.set(db, indexer);
}

/** The app's indexer for this database handle (a transaction has one when its owner registered it, as program runs do). */
export function autoIndexOf(db: Kysely<DB>): AutoIndexer | undefined {
  return indexers.get(db);
}
