import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/** Utilities: short links (`POST /api/common/utils/short`, followed at `GET /s/{code}`). */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('short_links')
    .addColumn('code', 'varchar(16)', (c) => c.primaryKey())
    /** sha256 of the URL: the same URL always gets the same code. */
    .addColumn('url_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('created_by', 'varchar(24)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('hits', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
