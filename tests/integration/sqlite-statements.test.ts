/**
 * Statements kept prepared by SQL text on SQLite (db/sqlite-gate.ts, StatementCache) and statements
 * compiled once per shape (db/compiled.ts): reuse gives the same answers as preparing and compiling
 * every time, including after the table's schema changed under a kept statement.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bindConnection, compiledOnce, unbindConnection } from '../../src/server/db/compiled.ts';
import { type Database, openDatabase } from '../../src/server/db/index.ts';
import { statementCacheOf } from '../../src/server/db/sqlite-gate.ts';

type AnyDb = import('kysely').Kysely<Record<string, Record<string, unknown>>>;

describe('kept statements (SQLite)', () => {
  let dir: string;
  let database: Database;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-stmts-'));
    database = await openDatabase({ file: path.join(dir, 's.db') });
    await sql`CREATE TABLE t_kept (id INTEGER PRIMARY KEY, v TEXT)`.execute(database.db);
  });

  afterAll(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs a statement again from the cache, and follows a schema change under it', async () => {
    const cache = statementCacheOf(database.sqlite!)!;
    const any = database.db as unknown as AnyDb;
    await any.insertInto('t_kept').values({ id: 1, v: 'a' }).execute();
    const read = () => sql<Record<string, unknown>>`SELECT * FROM t_kept ORDER BY id`.execute(database.db);
    expect((await read()).rows).toEqual([{ id: 1, v: 'a' }]);
    const hits = cache.hits;
    await any.insertInto('t_kept').values({ id: 2, v: 'b' }).execute();
    expect((await read()).rows).toEqual([
      { id: 1, v: 'a' },
      { id: 2, v: 'b' },
    ]);
    expect(cache.hits).toBeGreaterThan(hits);
    await sql`ALTER TABLE t_kept ADD COLUMN w INTEGER`.execute(database.db);
    expect((await read()).rows).toEqual([
      { id: 1, v: 'a', w: null },
      { id: 2, v: 'b', w: null },
    ]);
    await sql`DROP TABLE t_kept`.execute(database.db);
    await sql`CREATE TABLE t_kept (id INTEGER PRIMARY KEY, x TEXT)`.execute(database.db);
    await sql`INSERT INTO t_kept (id, x) VALUES (7, 'x')`.execute(database.db);
    expect((await read()).rows).toEqual([{ id: 7, x: 'x' }]);
  });

  it('an index another connection builds is seen by a kept statement, and EXPLAIN is never kept', async () => {
    await sql`CREATE TABLE t_other (id INTEGER PRIMARY KEY, k INTEGER)`.execute(database.db);
    for (let i = 0; i < 50; i++) await sql`INSERT INTO t_other (k) VALUES (${i % 7})`.execute(database.db);
    const plan = async () =>
      (
        await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT id FROM t_other WHERE k = ${3}`.execute(
          database.db,
        )
      ).rows
        .map((r) => r.detail)
        .join('\n');
    const read = () =>
      sql<{ id: number }>`SELECT id FROM t_other WHERE k = ${3} ORDER BY id`.execute(database.db);
    expect(await plan()).not.toContain('ix_other_k');
    const before = (await read()).rows;
    // A second connection (as the index builder's child process is) adds an index.
    const Sqlite = (await import('better-sqlite3')).default;
    const other = new Sqlite(path.join(dir, 's.db'));
    other.exec('CREATE INDEX ix_other_k ON t_other (k)');
    other.close();
    // The kept query notices the newer schema when it runs (and takes the index); EXPLAIN, which
    // runs nothing, then shows the plan of the schema the connection now has.
    expect((await read()).rows).toEqual(before);
    expect(await plan()).toContain('ix_other_k');
  });

  it('a shape compiled once answers each call with its own values; one whose parameters differ is built each time', async () => {
    const db = database.db as unknown as AnyDb;
    await sql`CREATE TABLE t_shape (id INTEGER PRIMARY KEY, v TEXT)`.execute(database.db);
    for (const [id, v] of [
      [1, 'one'],
      [2, 'two'],
    ] as const) {
      const r = await compiledOnce(db, 'test.insert', [id, v], () =>
        db.insertInto('t_shape').values({ id, v }),
      );
      expect(Number(r.numAffectedRows)).toBe(1);
    }
    const byId = (id: number) =>
      compiledOnce<{ v: string }>(db, 'test.select', [id], () =>
        db.selectFrom('t_shape').select('v').where('id', '=', id),
      );
    expect((await byId(1)).rows).toEqual([{ v: 'one' }]);
    expect((await byId(2)).rows).toEqual([{ v: 'two' }]);
    // The key says "one value" but the query binds two: never kept, so every call builds its own.
    const wrong = (id: number) =>
      compiledOnce<{ v: string }>(db, 'test.wrong', [id], () =>
        db.selectFrom('t_shape').select('v').where('id', '=', id).where('v', '!=', `not ${id}`),
      );
    expect((await wrong(1)).rows).toEqual([{ v: 'one' }]);
    expect((await wrong(2)).rows).toEqual([{ v: 'two' }]);
  });

  it('a transaction bound to its connection sends its kept statements straight to it, only while bound', async () => {
    await sql`CREATE TABLE t_bound (id INTEGER PRIMARY KEY, v TEXT)`.execute(database.db);
    const insert = (t: AnyDb, id: number, v: string) =>
      compiledOnce(t, 'test.bound.insert', [id, v], () => t.insertInto('t_bound').values({ id, v }));
    const read = (t: AnyDb, id: number) =>
      compiledOnce<{ v: string }>(t, 'test.bound.select', [id], () =>
        t.selectFrom('t_bound').select('v').where('id', '=', id),
      );
    let done: AnyDb | undefined;
    await database.db.transaction().execute(async (trx) => {
      const t = trx as unknown as AnyDb;
      await insert(t, 1, 'a'); // the shapes' first calls build and keep them
      expect((await read(t, 1)).rows).toEqual([{ v: 'a' }]);
      await bindConnection(trx);
      const viaKysely = vi.spyOn(t.getExecutor(), 'executeQuery');
      await insert(t, 2, 'b');
      expect((await read(t, 2)).rows).toEqual([{ v: 'b' }]);
      expect(viaKysely).not.toHaveBeenCalled();
      unbindConnection(trx);
      expect((await read(t, 1)).rows).toEqual([{ v: 'a' }]);
      expect(viaKysely).toHaveBeenCalledTimes(1);
      viaKysely.mockRestore();
      done = t;
    });
    expect((await read(database.db as unknown as AnyDb, 2)).rows).toEqual([{ v: 'b' }]);
    // After its end the transaction refuses statements, as Kysely's own do.
    await expect(Promise.resolve().then(() => read(done!, 1))).rejects.toThrow(/committed/);

    // A failing statement on the bound connection fails the transaction: nothing of it stays.
    await expect(
      database.db.transaction().execute(async (trx) => {
        const t = trx as unknown as AnyDb;
        await bindConnection(trx);
        try {
          await insert(t, 3, 'c');
          await insert(t, 1, 'again');
        } finally {
          unbindConnection(trx);
        }
      }),
    ).rejects.toThrow(/UNIQUE/);
    expect((await read(database.db as unknown as AnyDb, 3)).rows).toEqual([]);
  });
});
