import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * PostgreSQL: record ids in the "C" collation (code point order). Every query sorts `_id` in that
 * order (the reference evaluator's and SQLite's), and a primary key in the database's own collation
 * cannot serve `ORDER BY _id COLLATE "C"`, so every default-order page sorted the whole table. Tables
 * made from now on get their ids in "C" (data/ddl.ts `idColumnType`); this turns the older ones: the
 * `_id` of every builder table and the `owner_id` / `target_id` of every link table (a comparison of
 * two ids takes the "C" side's collation, which an index in another collation cannot serve).
 *
 * Ids are ASCII, so no value changes and the table is not rewritten; PostgreSQL rebuilds the indexes
 * on the column (the primary key) under a lock, once, at start. Managed indexes holding `_id` are
 * dropped first (they ordered it nulls first, which no ORDER BY asks for now); auto-index.ts builds
 * them again when their shapes recur. SQLite compares in code point order already: nothing to do.
 * Running it again changes nothing (a column already in "C" is left alone).
 */

const HEX24 = /^[0-9a-f]{24}$/;

/** The collation of a column ('' for the database default), or null when there is no such column. */
async function collationOf(db: Kysely<unknown>, table: string, column: string): Promise<string | null> {
  const r = await sql<{ c: string | null }>`SELECT collation_name AS c FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table} AND column_name = ${column}`.execute(db);
  const row = r.rows[0];
  return row ? (row.c ?? '') : null;
}

async function toC(db: Kysely<unknown>, table: string, columns: string[]): Promise<boolean> {
  const turn: string[] = [];
  for (const c of columns) {
    const now = await collationOf(db, table, c);
    if (now !== null && now !== 'C') turn.push(c);
  }
  if (turn.length === 0) return false;
  const alters = turn.map((c) => sql`ALTER COLUMN ${sql.ref(c)} TYPE varchar(24) COLLATE "C"`);
  await sql`ALTER TABLE ${sql.table(table)} ${sql.join(alters)}`.execute(db);
  return true;
}

/** Answers how many tables it turned. */
export async function collateIds(db: Kysely<unknown>, dialect: Dialect): Promise<number> {
  if (dialect !== 'postgres') return 0;
  const managed = await sql<{ id: string; name: string; columns: string }>`
    SELECT id, name, columns FROM data_indexes`.execute(db);
  for (const m of managed.rows) {
    const columns = JSON.parse(m.columns) as Array<{ column?: string }>;
    if (!columns.some((c) => c.column === '_id')) continue;
    await sql`DROP INDEX IF EXISTS ${sql.id(m.name)}`.execute(db);
    await sql`DELETE FROM data_indexes WHERE id = ${m.id}`.execute(db);
  }
  let turned = 0;
  const entities = await sql<{ id: string }>`SELECT id FROM data_entities ORDER BY id`.execute(db);
  // Names come from our own ids only (as in data/ddl.ts).
  for (const e of entities.rows) {
    if (HEX24.test(e.id) && (await toC(db, `e_${e.id}`, ['_id']))) turned++;
  }
  const links = await sql<{ id: string }>`
    SELECT id FROM data_fields WHERE type = 'collection' ORDER BY id`.execute(db);
  for (const f of links.rows) {
    if (HEX24.test(f.id) && (await toC(db, `l_${f.id}`, ['owner_id', 'target_id']))) turned++;
  }
  return turned;
}

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await collateIds(db, dialect);
}
