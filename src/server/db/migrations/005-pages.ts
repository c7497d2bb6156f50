import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Page documents and publishing. `pages` (from 001) gains the draft the designer edits, the copy end
 * users see (`published`, null until the first publish) and its number, and a `display` flag for
 * pages also offered as standalone displays (/api/app/dp). Every publish keeps its document in
 * `page_versions`, numbered per page from 1 through `last_version`.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  // SQLite adds one column per ALTER TABLE.
  const add = [
    db.schema.alterTable('pages').addColumn('draft', 'text', (c) => c.notNull().defaultTo('')),
    db.schema.alterTable('pages').addColumn('published', 'text'),
    db.schema.alterTable('pages').addColumn('published_version', 'integer'),
    db.schema.alterTable('pages').addColumn('published_at', 'bigint'),
    db.schema.alterTable('pages').addColumn('last_version', 'integer', (c) => c.notNull().defaultTo(0)),
    db.schema.alterTable('pages').addColumn('display', 'integer', (c) => c.notNull().defaultTo(0)),
    db.schema.alterTable('pages').addColumn('updated_by', 'varchar(24)'),
  ];
  for (const q of add) await q.execute();

  await db.schema
    .createTable('page_versions')
    .addColumn('page_id', 'varchar(24)', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('note', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'varchar(24)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('page_versions_pk', ['page_id', 'version'])
    .execute();
}
