import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/index.ts';
import { gateOf } from '../../db/sqlite-gate.ts';
import { fieldColumn, linkTable } from '../ddl.ts';
import type { EntityMeta } from '../meta.ts';
import type { FieldRow } from '../schema-service.ts';
import { wroteTables } from '../write-clock.ts';

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

/** One checked row, ready to insert: its values in `columns` order, and its collection links. */
export interface StagedRow {
  values: unknown[];
  /** Target ids per collection field (same order as `StagedWriter.collections`), or undefined. */
  links: (string[] | undefined)[] | null;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** From this many rows on, SQLite inserts run on a worker thread's own connection. */
export const WORKER_MIN_ROWS = 1000;

/** Parameters per statement: far below SQLite's 32,766 and PostgreSQL's 65,535. */
const MAX_PARAMS = 30_000;

/**
 * Writes checked rows into a builder table in chunks, each chunk its own short transaction with a
 * turn of the event loop between chunks, so other requests (and, on SQLite, other writers, which
 * share one connection) run between them instead of waiting for the whole import. When a chunk
 * fails, `undo` deletes what earlier chunks wrote: the import stays all-or-nothing.
 */
export class StagedWriter {
  /** System columns then every scalar field column, the order of `StagedRow.values`. */
  readonly columns: string[];
  readonly collections: FieldRow[];
  readonly chunk: number;
  private readonly written: string[] = [];
  private readonly statements = new Map<number, { run(...p: unknown[]): unknown }>();
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  private queued = 0;
  /** Whether any rows were handed over. */
  used = false;
  private sink: WorkerSink | null | undefined;

  constructor(
    private readonly database: Pick<Database, 'db' | 'dialect' | 'sqlite'>,
    private readonly meta: EntityMeta,
    private readonly wrote: (tables: string[]) => void = wroteTables,
  ) {
    this.columns = ['_id', '_created_at', '_updated_at', '_creator'];
    for (const f of meta.fields) if (f.type !== 'collection') this.columns.push(fieldColumn(f.id));
    this.collections = meta.fields.filter((f) => f.type === 'collection');
    this.chunk = Math.max(1, Math.min(500, Math.floor(MAX_PARAMS / this.columns.length)));
  }

  /** The builder table (for the worker). */
  get table(): string {
    return this.meta.table;
  }

  /** How many rows are in the table so far (for the answer). */
  get count(): number {
    return this.written.length;
  }

  /** The ids of the rows written so far. */
  get ids(): readonly string[] {
    return this.written;
  }

  /** Delete some of the rows written (those a check after writing refused); the rest stay. */
  async drop(ids: ReadonlySet<string>): Promise<void> {
    await this.remove(this.written.filter((id) => ids.has(id)));
    const kept = this.written.filter((id) => !ids.has(id));
    this.written.length = 0;
    this.written.push(...kept);
  }

  /**
   * Queue rows for writing behind those queued before and return once at most two chunks wait (the
   * caller keeps reading meanwhile). `bulk`: many rows are coming, so on SQLite the first call starts
   * the worker thread. A failure is remembered: later calls and `finish` throw it.
   */
  async push(rows: StagedRow[], bulk: boolean): Promise<void> {
    if (this.failure) throw this.failure;
    this.used = true;
    if (this.sink === undefined) {
      const raw = this.database.sqlite;
      this.sink = raw && raw.name !== ':memory:' && bulk ? new WorkerSink(raw.name, this) : null;
    }
    for (let i = 0; i < rows.length; i += this.chunk) {
      const part = rows.slice(i, i + this.chunk);
      this.queued++;
      this.chain = this.chain.then(async () => {
        try {
          if (this.failure) return;
          // Raw writes bypass Kysely's write gate: pass it here, so an index build yields to them.
          const raw = this.database.sqlite;
          if (raw) await gateOf(raw).writable();
          if (this.sink)
            await this.sink.write(
              part.flatMap((r) => r.values),
              part.length,
              this.linkLists(part),
            );
          else await this.writeChunk(part);
          this.wrote(this.tables());
          for (const r of part) this.written.push(r.values[0] as string);
          await tick();
        } catch (err) {
          this.failure ??= err;
        } finally {
          this.queued--;
        }
      });
    }
    if (this.queued > 2) await this.chain;
    if (this.failure) throw this.failure;
  }

  /** Wait for every queued chunk; after a failure, delete what was written and throw it. */
  async finish(): Promise<void> {
    await this.chain;
    await this.sink?.close();
    if (this.failure) {
      // The original failure is what the caller needs to see, even if the undo fails too.
      await this.undo().catch(() => undefined);
      throw this.failure;
    }
  }

  /** Give up: skip what is queued, wait for the chunk being written, delete every row written. */
  async abort(): Promise<void> {
    this.failure ??= new Error('import aborted');
    await this.chain;
    await this.sink?.close();
    await this.undo().catch(() => undefined);
  }

  /** Insert every row, chunk by chunk; on a failure undo the earlier chunks and rethrow. */
  async writeAll(rows: StagedRow[]): Promise<void> {
    await this.push(rows, rows.length >= WORKER_MIN_ROWS).catch(() => undefined);
    await this.finish();
  }

  /** Per collection field, the flattened owner, target, sort triples of these rows. */
  linkLists(rows: StagedRow[]): unknown[][] {
    return this.collections.map((_, k) => this.linkRows(rows, k));
  }

  private async writeChunk(rows: StagedRow[]): Promise<void> {
    const raw = this.database.sqlite;
    // Never inside someone else's open Kysely transaction on the shared connection: its rollback
    // would take our rows along. Then the Kysely path waits for the connection like any query.
    if (raw && !raw.inTransaction) {
      raw.transaction(() => {
        this.statement(rows.length).run(...rows.flatMap((r) => r.values));
        for (const [k, f] of this.collections.entries()) {
          const links = this.linkRows(rows, k);
          for (let i = 0; i < links.length; i += 3 * 5000) {
            const part = links.slice(i, i + 3 * 5000);
            raw
              .prepare(
                `INSERT INTO "${linkTable(f.id)}" ("owner_id","target_id","sort") VALUES ${'(?,?,?),'.repeat(part.length / 3).slice(0, -1)}`,
              )
              .run(...part);
          }
        }
      })();
    } else {
      const db = this.database.db as unknown as AnyDb;
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto(this.meta.table)
          .values(rows.map((r) => Object.fromEntries(this.columns.map((c, i) => [c, r.values[i]]))))
          .execute();
        for (const [k, f] of this.collections.entries()) {
          const flat = this.linkRows(rows, k);
          const objs = [];
          for (let i = 0; i < flat.length; i += 3)
            objs.push({ owner_id: flat[i], target_id: flat[i + 1], sort: flat[i + 2] });
          for (let i = 0; i < objs.length; i += 5000)
            await trx
              .insertInto(linkTable(f.id))
              .values(objs.slice(i, i + 5000))
              .execute();
        }
      });
    }
  }

  /** owner, target, sort triples of one collection field, flattened. */
  private linkRows(rows: StagedRow[], k: number): unknown[] {
    const out: unknown[] = [];
    for (const r of rows) {
      const ids = r.links?.[k];
      if (ids)
        ids.forEach((target, sort) => {
          out.push(r.values[0], target, sort);
        });
    }
    return out;
  }

  private statement(n: number) {
    let s = this.statements.get(n);
    if (!s) {
      const one = `(${this.columns.map(() => '?').join(',')})`;
      const cols = this.columns.map((c) => `"${c}"`).join(',');
      s = this.database.sqlite!.prepare(
        `INSERT INTO "${this.meta.table}" (${cols}) VALUES ${`${one},`.repeat(n).slice(0, -1)}`,
      );
      this.statements.set(n, s);
    }
    return s;
  }

  /** Delete the rows (and their links) written so far, in chunks. */
  private async undo(): Promise<void> {
    await this.remove(this.written);
    this.written.length = 0;
  }

  /** Delete these written rows and their links. */
  private async remove(list: readonly string[]): Promise<void> {
    const db = this.database.db as unknown as AnyDb;
    for (let i = 0; i < list.length; i += 500) {
      const ids = list.slice(i, i + 500);
      await db.transaction().execute(async (trx) => {
        for (const f of this.collections)
          await trx.deleteFrom(linkTable(f.id)).where('owner_id', 'in', ids).execute();
        await trx.deleteFrom(this.meta.table).where('_id', 'in', ids).execute();
      });
    }
    this.wrote(this.tables());
  }

  /** The tables the import writes (their write clocks move after each chunk). */
  private tables(): string[] {
    return [this.meta.table];
  }
}

/**
 * A worker thread with its own SQLite connection that runs the INSERT transactions (see
 * sqlite-insert-worker.mjs): the inserts and the WAL checkpoints they trigger happen off the main
 * thread. One chunk at a time; the main connection's writers interleave between chunks.
 */
class WorkerSink {
  private readonly worker: Worker;
  private pending: { resolve(): void; reject(e: Error): void } | null = null;
  private failure: Error | null = null;

  constructor(file: string, writer: StagedWriter) {
    this.worker = new Worker(new URL('./sqlite-insert-worker.mjs', import.meta.url), {
      workerData: {
        file,
        table: writer.table,
        columns: writer.columns,
        linkTables: writer.collections.map((f) => linkTable(f.id)),
        busyMs: 30_000,
      },
    });
    this.worker.on('message', (m: { ok?: true; error?: string }) => {
      const p = this.pending;
      this.pending = null;
      if (m.error) p?.reject(new Error(`import insert failed: ${m.error}`));
      else p?.resolve();
    });
    const broken = (e: Error) => {
      this.failure = e;
      this.pending?.reject(e);
      this.pending = null;
    };
    this.worker.on('error', broken);
    this.worker.on('exit', () => broken(new Error('import insert worker stopped')));
  }

  write(values: unknown[], count: number, links: unknown[][]): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.postMessage({ values, count, links });
    });
  }

  async close(): Promise<void> {
    if (this.failure) return;
    this.failure = new Error('closed');
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.worker.postMessage('close');
    await exited;
  }
}
