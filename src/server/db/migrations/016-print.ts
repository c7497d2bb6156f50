import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * New-window printing (`POST /api/app/util/{project}/print/prepare`): the print data kept under a
 * generated key until the print page takes it, once, before it expires.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('print_keys')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull())
    /** Who prepared it: only the same user may take it (null: an anonymous caller of a public project). */
    .addColumn('user_id', 'varchar(24)')
    /** The print page's id, or '' for the plain print document (a data view's table or record). */
    .addColumn('page', 'varchar(64)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('print_keys_expires').on('print_keys').column('expires_at').execute();
}
