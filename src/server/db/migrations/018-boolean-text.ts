import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Yes/no fields made before the boolean type existed: a text field every filled value of which is
 * the text "true" or "false" (what the spec's switches stored) becomes a boolean field, its values 1
 * and 0 (an empty text: no value). A text field holding anything else, or nothing at all yet, keeps
 * its type. The column is rebuilt under the same name (SQLite cannot change a column's type), after
 * the managed indexes and rollups holding it are dropped (auto-index.ts and rollup.ts build them
 * again on use). Runs once at start; a field it turned is never text again, so running it again
 * changes nothing.
 */

const HEX24 = /^[0-9a-f]{24}$/;

async function columnExists(db: Kysely<unknown>, dialect: Dialect, table: string, column: string) {
  const r =
    dialect === 'postgres'
      ? await sql<{ n: number }>`SELECT count(*)::int AS n FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = ${table} AND column_name = ${column}`.execute(
          db,
        )
      : await sql<{
          n: number;
        }>`SELECT count(*) AS n FROM pragma_table_info(${table}) WHERE name = ${column}`.execute(db);
  return Number(r.rows[0]?.n ?? 0) > 0;
}

/**
 * Rollups reading the column (data/rollup.ts, SQLite only) go first, as in data/ddl.ts dropRollups:
 * SQLite refuses to drop a column a trigger names. A rollup is its table, its triggers
 * (`<name>_i|u|d`) and its row in data_rollups (a later migration: it may not exist yet).
 */
async function dropRollupsReading(db: Kysely<unknown>, table: string, column: string): Promise<void> {
  const triggers = await sql<{ name: string }>`
    SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ${table}
      AND sql LIKE ${`%"${column}"%`}`.execute(db);
  const book = await sql<{ n: number }>`
    SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'data_rollups'`.execute(db);
  for (const g of triggers.rows) {
    const m = /^(rx_[0-9a-f]{24}_[0-9a-f]{10})_[iud]$/.exec(g.name);
    if (!m) continue;
    await sql.raw(`DROP TRIGGER IF EXISTS "${g.name}"`).execute(db);
    await sql.raw(`DROP TABLE IF EXISTS "${m[1]}"`).execute(db);
    if (Number(book.rows[0]?.n ?? 0) > 0)
      await sql`DELETE FROM data_rollups WHERE name = ${m[1]}`.execute(db);
  }
}

/** Turns the yes/no text fields of every project into boolean fields; answers how many it turned. */
export async function turnBooleanText(db: Kysely<unknown>, dialect: Dialect): Promise<number> {
  const fields = await sql<{ id: string; entity_id: string }>`
    SELECT id, entity_id FROM data_fields WHERE type = 'string' ORDER BY id`.execute(db);
  let turned = 0;
  for (const f of fields.rows) {
    // Names come from our own ids only (as in data/ddl.ts).
    if (!HEX24.test(f.id) || !HEX24.test(f.entity_id)) continue;
    const t = `e_${f.entity_id}`;
    const c = `c_${f.id}`;
    if (!(await columnExists(db, dialect, t, c))) continue;
    const seen = await sql<{ filled: number; yesno: number }>`
      SELECT count(*) AS filled,
             sum(CASE WHEN ${sql.ref(c)} IN ('true', 'false') THEN 1 ELSE 0 END) AS yesno
      FROM ${sql.table(t)} WHERE ${sql.ref(c)} IS NOT NULL AND ${sql.ref(c)} <> ''`.execute(db);
    const filled = Number(seen.rows[0]?.filled ?? 0);
    if (filled === 0 || Number(seen.rows[0]?.yesno ?? 0) !== filled) continue;

    const managed = await sql<{ id: string; name: string }>`
      SELECT id, name FROM data_indexes WHERE entity_id = ${f.entity_id} AND columns LIKE ${`%"${c}"%`}`.execute(
      db,
    );
    for (const m of managed.rows) {
      await sql`DROP INDEX IF EXISTS ${sql.id(m.name)}`.execute(db);
      await sql`DELETE FROM data_indexes WHERE id = ${m.id}`.execute(db);
    }
    if (dialect === 'sqlite') await dropRollupsReading(db, t, c);
    const tmp = `${c}_b`;
    await sql`ALTER TABLE ${sql.table(t)} ADD COLUMN ${sql.ref(tmp)} smallint`.execute(db);
    await sql`UPDATE ${sql.table(t)} SET ${sql.ref(tmp)} =
      CASE ${sql.ref(c)} WHEN 'true' THEN 1 WHEN 'false' THEN 0 ELSE NULL END`.execute(db);
    await sql`ALTER TABLE ${sql.table(t)} DROP COLUMN ${sql.ref(c)}`.execute(db);
    await sql`ALTER TABLE ${sql.table(t)} RENAME COLUMN ${sql.ref(tmp)} TO ${sql.ref(c)}`.execute(db);
    await sql`UPDATE data_fields SET type = 'boolean', updated_at = ${Date.now()} WHERE id = ${f.id}`.execute(
      db,
    );
    turned++;
  }
  return turned;
}

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await turnBooleanText(db, dialect);
}
