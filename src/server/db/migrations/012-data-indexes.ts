import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Indexes the server made on builder tables because a query shape kept coming back slow
 * (data/auto-index.ts): which table, the columns in order, how often it served a query since,
 * and whether a builder pinned it (never dropped for disuse).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('data_indexes')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('entity_id', 'varchar(24)', (c) => c.notNull())
    /** The SQL index name (`ax_<entity>_<hash>`), derived from our ids only. */
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    /** The query shape it serves (auto-index.ts shapeKey). */
    .addColumn('shape', 'varchar(2000)', (c) => c.notNull())
    /** JSON: [{ field, column, order?, collate? }] in index order. */
    .addColumn('columns', 'text', (c) => c.notNull())
    /** query | summary */
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('uses', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    /** What the shape cost before (p50 ms of its slow runs) and how long the build took. */
    .addColumn('cost_ms', 'integer', (c) => c.notNull())
    .addColumn('build_ms', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('data_indexes_entity').on('data_indexes').columns(['entity_id']).execute();
}
