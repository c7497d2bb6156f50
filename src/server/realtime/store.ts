import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { gateOf } from '../db/sqlite-gate.ts';

export interface StoreOptions {
  /** Appended updates are written in batches at most this old (bounds what `kill -9` can lose). */
  flushMs: number;
  /** Merge a document's rows into one snapshot once this many updates were appended to it. */
  compactEvery: number;
}

interface Pending {
  docId: string;
  data: Uint8Array;
  at: number;
}

type Log = { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };

const CHUNK = 200;

function toBuffer(u8: Uint8Array): Buffer {
  return Buffer.isBuffer(u8) ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
}

/**
 * Persistence of Y documents as appended updates plus compacted snapshots.
 * Appends are queued and written together every `flushMs`; compaction merges exactly the rows it read
 * (never "everything up to seq N"), so concurrent appends from other processes are never lost, and it
 * builds the snapshot from stored rows rather than from a live document, so a document that failed
 * to load can never be written back empty.
 */
export class DocStore {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private appended = new Map<string, number>();
  private compacting = new Set<string>();
  /** Rows written since start (for tests and benchmarks). */
  written = 0;

  /** On SQLite: one prepared statement in one transaction per batch (the append hot path). */
  private readonly sqliteInsert: ((rows: Pending[]) => void) | undefined;
  private readonly sqlite: SQLite.Database | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly opts: StoreOptions,
    private readonly log: Log,
    sqlite?: SQLite.Database,
  ) {
    this.sqlite = sqlite;
    if (sqlite) {
      const stmt = sqlite.prepare(
        'INSERT INTO page_updates (doc_id, snapshot, data, created_at) VALUES (?, 0, ?, ?)',
      );
      this.sqliteInsert = sqlite.transaction((rows: Pending[]) => {
        for (const p of rows) stmt.run(p.docId, toBuffer(p.data), p.at);
      });
    }
  }

  /** Every stored update of a document, snapshot rows included, oldest first. */
  async load(docId: string): Promise<Uint8Array[]> {
    const rows = await this.db
      .selectFrom('page_updates')
      .select(['data'])
      .where('doc_id', '=', docId)
      .orderBy('seq', 'asc')
      .execute();
    return rows.map((r) => new Uint8Array(r.data));
  }

  /** Queue an update for the next batch. */
  append(docId: string, data: Uint8Array): void {
    this.queue.push({ docId, data, at: Date.now() });
    this.timer ??= setTimeout(() => this.flushQuietly(), this.opts.flushMs);
  }

  /** Drop a removed document's queued updates and counters; waits for a batch already being written. */
  async discard(docId: string): Promise<void> {
    this.queue = this.queue.filter((p) => p.docId !== docId);
    this.appended.delete(docId);
    await this.chain;
  }

  /** Write everything queued so far; resolves once it is in the database. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const batch = this.queue;
    this.queue = [];
    const run = this.chain.then(() => this.write(batch));
    this.chain = run.catch(() => {});
    return run;
  }

  /** Timer-driven flush: a failure is logged and retried by `write`, never left unhandled. */
  private flushQuietly(): void {
    this.flush().catch(() => {});
  }

  private async write(batch: Pending[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      // A raw write bypasses Kysely's write gate: pass it here, so an index build yields to it.
      if (this.sqliteInsert && this.sqlite) await gateOf(this.sqlite).writable();
      // Never inside someone else's open Kysely transaction: its rollback would take our rows along.
      if (this.sqliteInsert && !this.sqlite?.inTransaction) {
        this.sqliteInsert(batch);
        this.written += batch.length;
      } else
        for (let i = 0; i < batch.length; i += CHUNK) {
          const rows = batch.slice(i, i + CHUNK).map((p) => ({
            doc_id: p.docId,
            snapshot: 0,
            data: toBuffer(p.data),
            created_at: p.at,
          }));
          await this.db.insertInto('page_updates').values(rows).execute();
          this.written += rows.length;
        }
    } catch (err) {
      // Keep the batch for the next attempt rather than dropping acknowledged edits.
      this.log.error({ err, rows: batch.length }, 'yjs: writing updates failed; will retry');
      this.queue = batch.concat(this.queue);
      this.timer ??= setTimeout(() => this.flushQuietly(), Math.max(this.opts.flushMs, 1000));
      throw err;
    }
    const due = new Set<string>();
    for (const p of batch) {
      const n = (this.appended.get(p.docId) ?? 0) + 1;
      this.appended.set(p.docId, n);
      if (n >= this.opts.compactEvery) due.add(p.docId);
    }
    for (const docId of due) {
      await this.compactNow(docId).catch((err) => this.log.warn({ err, docId }, 'yjs: compaction failed'));
    }
  }

  /**
   * Merge a document's rows into one snapshot row, in one transaction. Throws (and changes nothing)
   * when a stored row cannot be decoded.
   */
  compact(docId: string): Promise<void> {
    // In line with the appends, so a raw append never lands inside a compaction transaction.
    const run = this.chain.then(() => this.compactNow(docId));
    this.chain = run.catch(() => {});
    return run;
  }

  private async compactNow(docId: string): Promise<void> {
    if (this.compacting.has(docId)) return;
    this.compacting.add(docId);
    try {
      // yjs loads with the first compaction, not with the server (ydoc-merge.ts).
      const { mergeRows } = await import('./ydoc-merge.ts');
      await this.db.transaction().execute(async (trx) => {
        const rows = await trx
          .selectFrom('page_updates')
          .select(['seq', 'data'])
          .where('doc_id', '=', docId)
          .orderBy('seq', 'asc')
          .execute();
        if (rows.length <= 1) return;
        const merged = mergeRows(rows.map((r) => new Uint8Array(r.data)));
        const seqs = rows.map((r) => Number(r.seq));
        for (let i = 0; i < seqs.length; i += 500) {
          await trx
            .deleteFrom('page_updates')
            .where('seq', 'in', seqs.slice(i, i + 500))
            .execute();
        }
        await trx
          .insertInto('page_updates')
          .values({ doc_id: docId, snapshot: 1, data: toBuffer(merged), created_at: Date.now() })
          .execute();
      });
    } finally {
      // Also after a failure: try again after another round of updates, not on every batch.
      this.appended.set(docId, 0);
      this.compacting.delete(docId);
    }
  }

  /** Forget per-document counters of an unloaded document. */
  forget(docId: string): void {
    this.appended.delete(docId);
  }

  async close(): Promise<void> {
    await this.flush().catch(() => {});
    await this.chain;
  }
}
