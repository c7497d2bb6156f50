import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type Migration, Migrator, PostgresDialect, sql } from 'kysely';
import type pg from 'pg';
import * as m001 from './migrations/001-foundation.ts';
import * as m002 from './migrations/002-access.ts';
import * as m003 from './migrations/003-realtime.ts';
import * as m004 from './migrations/004-data.ts';
import * as m005 from './migrations/005-pages.ts';
import * as m006 from './migrations/006-share.ts';
import * as m007 from './migrations/007-programs.ts';
import * as m008 from './migrations/008-role-applications.ts';
import * as m009 from './migrations/009-payment-third.ts';
import * as m010 from './migrations/010-tools.ts';
import * as m011 from './migrations/011-schedules.ts';
import * as m012 from './migrations/012-data-indexes.ts';
import * as m015 from './migrations/015-member-paging.ts';
import * as m016 from './migrations/016-print.ts';
import * as m018 from './migrations/018-boolean-text.ts';
import * as m020 from './migrations/020-playground.ts';
import * as m021 from './migrations/021-data-rollups.ts';
import * as m023 from './migrations/023-id-collation.ts';
import type { DB } from './schema.ts';
import { GatedSqliteDialect, gateOf } from './sqlite-gate.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** The PostgreSQL schema in use, when one was named. */
  schema?: string | undefined;
  /** The raw better-sqlite3 handle on SQLite (for DDL and hot paths), else undefined. */
  sqlite: SQLite.Database | undefined;
  /** The node-postgres pool on PostgreSQL (its counts feed the metrics), else undefined. */
  pool?: pg.Pool | undefined;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… ; unset means SQLite. */
  url?: string | undefined;
  /** PostgreSQL schema (created when missing). */
  schema?: string | undefined;
  /** SQLite file, or ':memory:'. */
  file?: string;
}

let pgModule: Promise<typeof pg> | undefined;
/** node-postgres, read when a PostgreSQL database is opened (a SQLite server never loads it). */
function loadPg(): Promise<typeof pg> {
  pgModule ??= import('pg').then(({ default: mod }) => {
    // bigint columns hold millisecond times and counts: answer them as numbers, not strings.
    mod.types.setTypeParser(20, (v) => Number(v));
    mod.types.setTypeParser(1700, (v) => Number(v));
    return mod;
  });
  return pgModule;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Open the database named by the options and bring its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.url ? await openPostgres(options.url, options.schema) : openSqlite(options.file!);
  await migrate(database, options.url ? options.schema : undefined);
  return database;
}

function openSqlite(file: string): Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<DB>({ dialect: new GatedSqliteDialect({ database: sqlite }, gateOf(sqlite)) });
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    async close() {
      await db.destroy();
    },
  };
}

async function openPostgres(url: string, schema: string | undefined): Promise<Database> {
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`bad schema name ${schema}`);
  const pg = await loadPg();
  if (schema) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    schema,
    sqlite: undefined,
    pool,
    async close() {
      await db.destroy();
    },
  };
}

/** The ordered migrations; each receives the dialect for the few places DDL differs. */
const MIGRATIONS: Record<string, { up(db: Kysely<unknown>, dialect: Dialect): Promise<void> }> = {
  '001-foundation': m001,
  '002-access': m002,
  '003-realtime': m003,
  '004-data': m004,
  '005-pages': m005,
  '006-share': m006,
  '007-programs': m007,
  '008-role-applications': m008,
  '010-tools': m010,
  '009-payment-third': m009,
  '011-schedules': m011,
  '012-data-indexes': m012,
  '015-member-paging': m015,
  '016-print': m016,
  '018-boolean-text': m018,
  '020-playground': m020,
  '021-data-rollups': m021,
  '023-id-collation': m023,
};

async function migrate(database: Database, configuredSchema: string | undefined): Promise<void> {
  const migrations: Record<string, Migration> = {};
  for (const [name, mig] of Object.entries(MIGRATIONS)) {
    migrations[name] = { up: (db) => mig.up(db, database.dialect) };
  }
  // Kysely looks for its migration tables in every schema unless told which one: with several
  // PostgreSQL schemas in one database (tests, tenants) it would find another schema's tables.
  let migrationTableSchema = configuredSchema;
  if (database.dialect === 'postgres' && !migrationTableSchema) {
    const r = await sql<{ s: string }>`select current_schema() as s`.execute(database.db);
    migrationTableSchema = r.rows[0]?.s;
  }
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations },
    // Areas add migrations independently; apply any not yet run, whatever its place in the order.
    allowUnorderedMigrations: true,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  let { error, results } = await migrator.migrateToLatest();
  // Kysely's PostgreSQL introspection names every schema's tables (pg_get_serial_sequence on each):
  // another schema dropped at that moment (a tenant or test removed beside us) makes it throw
  // "schema … does not exist" for that other schema. Nothing of ours failed: look again.
  for (let retry = 0; error && retry < 3 && otherSchemaGone(error, migrationTableSchema, results); retry++)
    ({ error, results } = await migrator.migrateToLatest());
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`migration ${failed ?? ''} failed: ${(error as Error).message ?? String(error)}`);
  }
}

/**
 * The error is PostgreSQL's "schema … does not exist", or "relation "schema.table" does not exist"
 * (a table dropped while the introspection named it), about a schema other than ours; or, before
 * any migration of ours ran (`results` undefined: the migrator was still looking for its tables),
 * "column … of relation "table" does not exist", which names no schema: pg_get_serial_sequence on
 * a column of another schema's table being dropped beside us (seen in a full test run on the
 * column print_keys.project_id, which none of our migrations ever drops).
 */
export function otherSchemaGone(
  error: unknown,
  ours: string | undefined,
  results?: readonly unknown[],
): boolean {
  const text = String((error as Error)?.message ?? error);
  if (results === undefined && /^column "[^"]+" of relation "[^"]+" does not exist$/.test(text)) return true;
  const m =
    /schema "([^"]+)" does not exist/.exec(text) ?? /relation "([^".]+)\.[^"]+" does not exist/.exec(text);
  return m !== null && m[1] !== ours;
}
