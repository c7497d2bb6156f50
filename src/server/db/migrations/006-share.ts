import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/** The shared key/value service (stored view, filter, label, export … configs) and auto-numbering. */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('share_items')
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('model', 'varchar(32)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    /** '' for project and public items; the owner's id for private ones. */
    .addColumn('owner_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('key', 'varchar(128)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_by', 'varchar(24)')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('share_items_pk', ['project_id', 'model', 'type', 'owner_id', 'key'])
    .execute();
  await db.schema
    .createTable('share_increments')
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('key', 'varchar(128)', (c) => c.notNull())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('share_increments_pk', ['project_id', 'key'])
    .execute();
}
