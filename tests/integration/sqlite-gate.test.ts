/**
 * The SQLite write gate (src/server/db/sqlite-gate.ts): a managed index build on another connection
 * and the server's own writes keep out of each other's way. A transaction that read before a build
 * still writes (no "database is locked"), and a write during a build waits without blocking the event
 * loop.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/index.ts';
import { gateOf } from '../../src/server/db/sqlite-gate.ts';

describe('SQLite write gate', () => {
  let dir: string;
  let database: Database;
  let other: SQLite.Database;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-gate-'));
    const file = path.join(dir, 'gate.db');
    database = await openDatabase({ file });
    await sql`CREATE TABLE t_gate (id INTEGER PRIMARY KEY, v INTEGER)`.execute(database.db);
    await sql`INSERT INTO t_gate (id, v) VALUES (1, 0)`.execute(database.db);
    // The "builder": a second connection, as the index worker has.
    other = new SQLite(file);
    other.pragma('busy_timeout = 5000');
  });

  afterAll(async () => {
    other.close();
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a transaction that read before a build still writes; the build waits for it', async () => {
    const gate = gateOf(database.sqlite!);
    const order: string[] = [];
    let build: Promise<void> | undefined;
    await database.db.transaction().execute(async (tx) => {
      const row = await sql<{ v: number }>`SELECT v FROM t_gate WHERE id = 1`.execute(tx);
      order.push('read');
      // A build starts now, while the transaction is open (as an auto-index build may).
      build = gate.exclusive(async () => {
        order.push('build');
        other.exec('CREATE INDEX IF NOT EXISTS t_gate_v ON t_gate (v)');
      });
      await new Promise((r) => setTimeout(r, 20));
      await sql`UPDATE t_gate SET v = ${row.rows[0]!.v + 1} WHERE id = 1`.execute(tx);
      order.push('write');
    });
    await build;
    expect(order).toEqual(['read', 'write', 'build']);
    const after = await sql<{ v: number }>`SELECT v FROM t_gate WHERE id = 1`.execute(database.db);
    expect(after.rows[0]!.v).toBe(1);
  });

  it('a write during a build waits for it without blocking the event loop; reads go on', async () => {
    const gate = gateOf(database.sqlite!);
    let releaseBuild!: () => void;
    const building = gate.exclusive(async () => {
      // Hold the write lock on the other connection as a long index build does.
      other.exec('BEGIN IMMEDIATE');
      await new Promise<void>((r) => {
        releaseBuild = r;
      });
      other.exec('COMMIT');
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(gate.building).toBe(true);

    let written = false;
    const write = database.db
      .transaction()
      .execute(async (tx) => {
        await sql`UPDATE t_gate SET v = v + 1 WHERE id = 1`.execute(tx);
      })
      .then(() => {
        written = true;
      });
    const single = sql`INSERT INTO t_gate (id, v) VALUES (2, 5)`.execute(database.db);
    // The event loop runs while both wait (a blocked busy_timeout would stall it here).
    let ticks = 0;
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 5));
      ticks++;
    }
    expect(ticks).toBe(5);
    expect(written).toBe(false);
    // Reads on the server's connection are answered meanwhile (WAL).
    const read = database.sqlite!.prepare('SELECT v FROM t_gate WHERE id = 1').get() as { v: number };
    expect(read.v).toBe(1);

    releaseBuild();
    await building;
    await write;
    await single;
    expect(written).toBe(true);
    const rows = await sql<{ id: number; v: number }>`SELECT id, v FROM t_gate ORDER BY id`.execute(
      database.db,
    );
    expect(rows.rows).toEqual([
      { id: 1, v: 2 },
      { id: 2, v: 5 },
    ]);
  });
});
