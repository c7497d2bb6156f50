import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { FIELD_TYPES, type FieldType } from '../../shared/api/fields.ts';
import type { Dialect } from '../db/index.ts';
import { pgDropStatements } from './rollup-pg.ts';

/**
 * DDL for builder tables. Names are derived from our own 24-hex ids only (`e_<id>`, `c_<id>`,
 * `l_<id>`), never from user text, so no identifier ever carries input.
 */

export { FIELD_TYPES, type FieldType };

const HEX24 = /^[0-9a-f]{24}$/;

function checkId(id: string): string {
  if (!HEX24.test(id)) throw new Error(`not an id: ${id}`);
  return id;
}

/** Names already checked, by id: every row read or written names each of its columns (a hot path). */
function namer(prefix: string): (id: string) => string {
  const named = new Map<string, string>();
  return (id) => {
    let name = named.get(id);
    if (name === undefined) {
      name = `${prefix}${checkId(id)}`;
      if (named.size >= 50_000) named.clear();
      named.set(id, name);
    }
    return name;
  };
}

export const entityTable = namer('e_');
export const fieldColumn = namer('c_');
export const linkTable = namer('l_');

/** The SQL column type of a scalar field type. */
function columnType(type: FieldType, dialect: Dialect) {
  switch (type) {
    case 'number':
      return dialect === 'postgres' ? sql`double precision` : sql`real`;
    case 'date':
      return sql`bigint`;
    case 'time':
      return sql`varchar(8)`;
    case 'relate':
      return sql`varchar(24)`;
    case 'boolean':
      return sql`smallint`;
    case 'email':
      return sql`varchar(254)`;
    case 'phone':
      return sql`varchar(40)`;
    default:
      return sql`text`;
  }
}

/**
 * Types whose column gets a single-column index when the field is made. Relations: removing a
 * record clears the references to it (`WHERE c_x = id` on every pointing table) and relation
 * filters look ids up. Numbers and dates: they are what lists sort by and range over, so a list
 * sorted by one answers its first page from the index, even behind a filter no index serves
 * (`title contains x`, sort by amount: a walk of the index that stops after one page, instead of a
 * full scan and sort until the adaptive index would be built). Ascending with nulls first, the
 * sort's own order, so one index serves both directions (read backwards for descending) and the
 * `_id` tie-break is sorted within equal keys only. Every other index follows use (auto-index.ts):
 * single-column indexes on text and options cost each write and a low-cardinality one made
 * grouped scans slower than no index at all.
 */
const INDEXED: ReadonlySet<FieldType> = new Set(['relate', 'number', 'date']);
const SORT_INDEXED: ReadonlySet<FieldType> = new Set(['number', 'date']);

/** The name of a field's default index. */
export const fieldIndexName = (t: string, c: string) => `${t}_${c}`;

/**
 * The statement making a field's default index, if its type gets one (see INDEXED). `background`:
 * for an existing table (auto-index.ts backfill), CONCURRENTLY on PostgreSQL and IF NOT EXISTS.
 */
export function fieldIndexStatement(
  dialect: Dialect,
  t: string,
  c: string,
  type: FieldType,
  background = false,
): string | null {
  if (!INDEXED.has(type)) return null;
  // PostgreSQL orders nulls last by default; the ORDER BY puts them first when ascending.
  const nulls = dialect === 'postgres' && SORT_INDEXED.has(type) ? ' NULLS FIRST' : '';
  const how = background ? `${dialect === 'postgres' ? 'CONCURRENTLY ' : ''}IF NOT EXISTS ` : '';
  return `CREATE INDEX ${how}"${fieldIndexName(t, c)}" ON "${t}" ("${c}"${nulls})`;
}

/** Field types whose default index came later (older tables lack it: auto-index.ts backfills it). */
export const BACKFILLED_INDEX_TYPES: readonly FieldType[] = ['number', 'date'];

async function createFieldIndex(
  db: Kysely<unknown>,
  dialect: Dialect,
  t: string,
  c: string,
  type: FieldType,
) {
  const statement = fieldIndexStatement(dialect, t, c, type);
  if (statement) await sql.raw(statement).execute(db);
}

/**
 * The type of a column holding record ids. PostgreSQL: in the "C" collation (code point order), the
 * order every query sorts `_id` in (the reference evaluator's, SQLite's), so the primary key serves
 * the default order and the `_id` tie-break; a key in the database's own collation cannot serve
 * `ORDER BY _id COLLATE "C"`, and every default-order page sorted the whole table. Link tables hold
 * ids in the same collation: a comparison of two ids takes the "C" side's collation, and an index in
 * another collation cannot serve it (`l.owner_id = t._id`). Migration 023 turns older tables.
 */
export function idColumnType(dialect: Dialect) {
  return dialect === 'postgres' ? sql`varchar(24) COLLATE "C"` : sql`varchar(24)`;
}

function dialectOf(db: Kysely<unknown>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export async function createEntityTable(db: Kysely<unknown>, entityId: string): Promise<void> {
  const t = entityTable(entityId);
  await db.schema
    .createTable(t)
    .addColumn('_id', idColumnType(dialectOf(db)), (c) => c.primaryKey())
    .addColumn('_created_at', 'bigint', (c) => c.notNull())
    .addColumn('_updated_at', 'bigint', (c) => c.notNull())
    .addColumn('_creator', 'varchar(24)')
    .execute();
  await db.schema.createIndex(`${t}_created`).on(t).column('_created_at').execute();
}

export async function dropEntityTable(db: Kysely<unknown>, entityId: string): Promise<void> {
  await dropRollups(db, entityId);
  await db.schema.dropTable(entityTable(entityId)).ifExists().execute();
}

export async function addFieldStorage(
  db: Kysely<unknown>,
  dialect: Dialect,
  entityId: string,
  fieldId: string,
  type: FieldType,
): Promise<void> {
  if (type === 'collection') {
    const l = linkTable(fieldId);
    await db.schema
      .createTable(l)
      .addColumn('owner_id', idColumnType(dialect), (c) => c.notNull())
      .addColumn('target_id', idColumnType(dialect), (c) => c.notNull())
      .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint(`${l}_pk`, ['owner_id', 'target_id'])
      .execute();
    await db.schema.createIndex(`${l}_target`).on(l).column('target_id').execute();
    return;
  }
  const t = entityTable(entityId);
  const c = fieldColumn(fieldId);
  await db.schema.alterTable(t).addColumn(c, columnType(type, dialect)).execute();
  await createFieldIndex(db, dialect, t, c, type);
}

export async function dropFieldStorage(
  db: Kysely<unknown>,
  entityId: string,
  fieldId: string,
  type: FieldType,
): Promise<void> {
  if (type === 'collection') {
    await db.schema.dropTable(linkTable(fieldId)).ifExists().execute();
    return;
  }
  const t = entityTable(entityId);
  const c = fieldColumn(fieldId);
  await db.schema.dropIndex(`${t}_${c}`).ifExists().execute();
  // Rollups reading the column go first: SQLite refuses to drop a column one of their triggers names.
  await dropRollups(db, entityId, c);
  // Managed indexes holding the column go first (SQLite refuses to drop an indexed column).
  const managed = await sql<{
    id: string;
    name: string;
  }>`SELECT id, name FROM data_indexes WHERE entity_id = ${entityId} AND columns LIKE ${`%"${c}"%`}`.execute(
    db,
  );
  for (const m of managed.rows) {
    await sql`DROP INDEX IF EXISTS ${sql.id(m.name)}`.execute(db);
    await sql`DELETE FROM data_indexes WHERE id = ${m.id}`.execute(db);
  }
  await db.schema.alterTable(t).dropColumn(c).execute();
}

/** The triggers of a rollup (data/rollup.ts) are named `<rollup>_<suffix>`. */
export const ROLLUP_TRIGGERS = ['i', 'u', 'd'] as const;
const ROLLUP_TRIGGER = /^rx_([0-9a-f]{24})_[0-9a-f]{10}_[iud]$/;

/**
 * Drop a rollup's triggers and table (inside the caller's transaction). On PostgreSQL its trigger
 * functions go with their triggers (data/rollup-pg.ts).
 */
export async function dropRollupObjects(db: Kysely<unknown>, name: string): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    for (const s of pgDropStatements(name)) await sql.raw(s).execute(db);
    return;
  }
  for (const s of ROLLUP_TRIGGERS) await sql.raw(`DROP TRIGGER IF EXISTS "${name}_${s}"`).execute(db);
  await sql.raw(`DROP TABLE IF EXISTS "${name}"`).execute(db);
}

/**
 * Drop the rollups (data/rollup.ts) of a table, or only those reading `column`: their triggers,
 * tables and rows, inside the caller's transaction. Before a column is dropped (SQLite refuses to
 * drop a column a trigger names; a PostgreSQL trigger function naming it would fail every write)
 * and with the table. Any rollup trigger left on the table without its row (a build stopped
 * between its two transactions on PostgreSQL; on SQLite a crash cannot leave one, but be safe)
 * goes too.
 */
export async function dropRollups(db: Kysely<unknown>, entityId: string, column?: string): Promise<void> {
  const t = entityTable(entityId);
  const reads = (text: string) => column === undefined || text.includes(`"${column}"`);
  const rows = await sql<{ id: string; name: string; keys: string; vals: string }>`
    SELECT id, name, keys, vals FROM data_rollups WHERE entity_id = ${entityId}`.execute(db);
  for (const r of rows.rows) {
    if (!reads(r.keys) && !reads(r.vals)) continue;
    await dropRollupObjects(db, r.name);
    await sql`DELETE FROM data_rollups WHERE id = ${r.id}`.execute(db);
  }
  const left =
    dialectOf(db) === 'postgres'
      ? await sql<{ name: string; sql: string }>`
    SELECT g.tgname AS name, p.prosrc AS sql FROM pg_trigger g JOIN pg_proc p ON p.oid = g.tgfoid
    WHERE g.tgrelid = to_regclass(${`"${t}"`}) AND NOT g.tgisinternal`.execute(db)
      : await sql<{ name: string; sql: string }>`
    SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ${t}`.execute(db);
  for (const g of left.rows) {
    const m = ROLLUP_TRIGGER.exec(g.name);
    if (!m || m[1] !== entityId || !reads(g.sql)) continue;
    await dropRollupObjects(db, m[0].slice(0, -2));
  }
}
