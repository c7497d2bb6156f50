/**
 * SQLite has one writer. A managed index is built on a worker thread's own connection (auto-index.ts),
 * which holds the write lock for the whole build (seconds at a million rows). Without care, a write on
 * the server's connection meanwhile either blocks the event loop in `busy_timeout` (every request
 * waits, reads included) or, inside a transaction that read before the build committed, fails with
 * "database is locked" (SQLITE_BUSY_SNAPSHOT: its snapshot is older than the new schema).
 *
 * The gate keeps the two apart: a build waits until no transaction of ours is open and holds the gate
 * while it runs; transactions and single writes made through Kysely wait for the gate *asynchronously*
 * (the event loop and reads go on), and transactions begin IMMEDIATE, so a transaction owns the write
 * lock from its first statement and can never be caught with an old snapshot.
 *
 * The connection also keeps its prepared statements by SQL text (`StatementCache`): Kysely's own
 * SQLite connection prepares every statement again on every call, which was the largest single cost of
 * a short query or a one-row update after the query itself (about a third of a program run's SQLite
 * time). SQLite re-prepares a kept statement by itself after a schema change, and better-sqlite3 reads
 * a result's columns on every call, so a kept `SELECT *` follows an added column.
 *
 * A build may be *preemptible* (auto-index.ts builds in a child process): then a write arriving at the
 * gate does not wait for it; it stops the build (the child is killed, and WAL drops its uncommitted
 * work) and goes on as soon as the child is gone. The builder retries once writes have been quiet
 * (`quiet`). `lastWrite` is when a write last passed the gate.
 */
import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  DeleteQueryNode,
  type Driver,
  InsertQueryNode,
  type QueryResult,
  SqliteDialect,
  type SqliteDialectConfig,
  type TransactionSettings,
  UpdateQueryNode,
} from 'kysely';

export class WriteGate {
  private build: Promise<void> | null = null;
  private preempt: (() => void) | null = null;
  private open = 0;
  private drained: Array<() => void> = [];
  /** performance.now() of the last write through the gate (0: none yet). */
  lastWrite = 0;
  /** Builds stopped by a write so far (for tests and benchmarks). */
  preempted = 0;

  /** Resolves when no build holds the gate; stops a preemptible build instead of waiting it out. */
  async writable(): Promise<void> {
    this.lastWrite = performance.now();
    while (this.build) {
      if (this.preempt) {
        const stop = this.preempt;
        this.preempt = null;
        this.preempted++;
        stop();
      }
      await this.build;
    }
  }

  /** Note a write that did not wait on the gate (no build was running). */
  wrote(): void {
    this.lastWrite = performance.now();
  }

  /** Resolves once no write has passed the gate for `ms` (or when `signal` aborts). */
  async quiet(ms: number, signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (signal?.aborted) return;
      const left = this.lastWrite + ms - performance.now();
      if (left <= 0) return;
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, left + 1);
        function done() {
          clearTimeout(t);
          signal?.removeEventListener('abort', done);
          resolve();
        }
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Whether a build holds the gate now. */
  get building(): boolean {
    return this.build !== null;
  }

  enter(): void {
    this.open++;
  }

  leave(): void {
    this.open = Math.max(0, this.open - 1);
    if (this.open === 0) for (const f of this.drained.splice(0)) f();
  }

  /**
   * Runs `fn` (a DDL build elsewhere) once no transaction of ours is open. Writes wait meanwhile,
   * unless `preempt` is given: then the first write to arrive calls it (it must make `fn` settle
   * soon, e.g. by killing the build) and goes on once `fn` settled.
   */
  async exclusive<T>(fn: () => Promise<T>, preempt?: () => void): Promise<T> {
    while (this.build) await this.build;
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    this.build = held;
    this.preempt = preempt ?? null;
    try {
      while (this.open > 0) await new Promise<void>((r) => this.drained.push(r));
      return await fn();
    } finally {
      this.build = null;
      this.preempt = null;
      release();
    }
  }
}

const gates = new WeakMap<object, WriteGate>();

/** The gate of a better-sqlite3 handle (one per database file opened by this process). */
export function gateOf(sqlite: object): WriteGate {
  let g = gates.get(sqlite);
  if (!g) {
    g = new WriteGate();
    gates.set(sqlite, g);
  }
  return g;
}

function isWrite(q: CompiledQuery): boolean {
  const node = q.query;
  if (node && (InsertQueryNode.is(node) || UpdateQueryNode.is(node) || DeleteQueryNode.is(node))) return true;
  return /^\s*(insert|update|delete|replace)\b/i.test(q.sql);
}

/** Statements kept longer than this many characters are not kept (one-off DDL, long id lists). */
const CACHED_SQL_MAX = 4000;
/**
 * A plan is made when its statement is prepared, and an EXPLAIN runs no transaction that would notice a
 * newer schema (an index another connection built), so a kept EXPLAIN would go on showing the old plan.
 */
const EXPLAIN = /^\s*explain\b/i;

/**
 * Prepared statements by SQL text, least recently used dropped past `max`. A statement is only ever
 * run to completion (`all`/`run`), never left iterating, so one kept statement serves every caller.
 */
export class StatementCache {
  private readonly kept = new Map<string, SQLite.Statement>();
  hits = 0;
  misses = 0;
  constructor(
    private readonly db: SQLite.Database,
    private readonly max = 500,
  ) {}

  get size(): number {
    return this.kept.size;
  }

  statement(text: string): SQLite.Statement {
    let st = this.kept.get(text);
    if (st) {
      this.hits++;
      // Most recently used last: the first key is the one to drop.
      this.kept.delete(text);
      this.kept.set(text, st);
      return st;
    }
    this.misses++;
    st = this.db.prepare(text);
    if (text.length <= CACHED_SQL_MAX && !EXPLAIN.test(text)) {
      if (this.kept.size >= this.max) this.kept.delete(this.kept.keys().next().value as string);
      this.kept.set(text, st);
    }
    return st;
  }

  clear(): void {
    this.kept.clear();
  }
}

const statementCaches = new WeakMap<object, StatementCache>();

/** The statement cache of a better-sqlite3 handle opened through `GatedSqliteDialect` (tests, metrics). */
export function statementCacheOf(sqlite: object): StatementCache | undefined {
  return statementCaches.get(sqlite);
}

class GatedConnection implements DatabaseConnection {
  inTx = false;
  constructor(
    readonly inner: DatabaseConnection,
    private readonly gate: WriteGate,
    private readonly statements: StatementCache,
  ) {}

  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.inTx && isWrite(q)) {
      if (this.gate.building) await this.gate.writable();
      else this.gate.wrote();
    }
    return this.run<R>(q);
  }

  /** What Kysely's SQLite connection does, with the statement taken from the cache. */
  run<R>(q: CompiledQuery): QueryResult<R> {
    const stmt = this.statements.statement(q.sql);
    const params = q.parameters as unknown[];
    if (stmt.reader) return { rows: stmt.all(params) as R[] };
    const { changes, lastInsertRowid } = stmt.run(params);
    return {
      numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
      insertId:
        lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
      rows: [],
    };
  }

  streamQuery<R>(q: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(q, chunkSize);
  }
}

class GatedDriver implements Driver {
  private conn: GatedConnection | null = null;
  constructor(
    private readonly inner: Driver,
    private readonly gate: WriteGate,
    private readonly statements: StatementCache,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const c = await this.inner.acquireConnection();
    if (!this.conn || this.conn.inner !== c) this.conn = new GatedConnection(c, this.gate, this.statements);
    return this.conn;
  }

  async beginTransaction(c: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    const conn = c as GatedConnection;
    await this.gate.writable();
    this.gate.enter();
    try {
      conn.run(CompiledQuery.raw('begin immediate'));
    } catch (err) {
      this.gate.leave();
      throw err;
    }
    conn.inTx = true;
  }

  async commitTransaction(c: DatabaseConnection): Promise<void> {
    await this.end(c, 'commit');
  }

  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    await this.end(c, 'rollback');
  }

  private async end(c: DatabaseConnection, word: string): Promise<void> {
    const conn = c as GatedConnection;
    try {
      conn.run(CompiledQuery.raw(word));
    } finally {
      conn.inTx = false;
      this.gate.leave();
    }
  }

  savepoint: Driver['savepoint'] = (c, name, compile) =>
    this.inner.savepoint!((c as GatedConnection).inner, name, compile);
  rollbackToSavepoint: Driver['rollbackToSavepoint'] = (c, name, compile) =>
    this.inner.rollbackToSavepoint!((c as GatedConnection).inner, name, compile);
  releaseSavepoint: Driver['releaseSavepoint'] = (c, name, compile) =>
    this.inner.releaseSavepoint!((c as GatedConnection).inner, name, compile);

  releaseConnection(c: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((c as GatedConnection).inner);
  }

  destroy(): Promise<void> {
    this.statements.clear();
    return this.inner.destroy();
  }
}

/** Kysely's SQLite dialect with the write gate of its handle, and a statement cache. */
export class GatedSqliteDialect extends SqliteDialect {
  private readonly statements: StatementCache;
  constructor(
    config: SqliteDialectConfig & { database: SQLite.Database },
    private readonly gate: WriteGate,
  ) {
    super(config);
    this.statements = new StatementCache(config.database);
    statementCaches.set(config.database, this.statements);
  }

  override createDriver(): Driver {
    return new GatedDriver(super.createDriver(), this.gate, this.statements);
  }
}
