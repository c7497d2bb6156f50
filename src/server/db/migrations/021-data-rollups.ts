import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Rollups the server made on builder tables because a grouped summary kept coming back slow
 * (data/rollup.ts): a small table of per-group counts and sums kept exact by triggers on the record
 * table. Which table, its group and value columns, how often it answered a summary since, and
 * whether a builder pinned it (never dropped for disuse).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('data_rollups')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('entity_id', 'varchar(24)', (c) => c.notNull())
    /** The rollup table's name (`rx_<entity>_<hash>`), also its triggers' prefix; from our ids only. */
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    /** The shape it was built for (rollup.ts rollupShape). */
    .addColumn('shape', 'varchar(2000)', (c) => c.notNull())
    /** JSON: the group columns, in key order (`["c_…"]`). */
    .addColumn('keys', 'text', (c) => c.notNull())
    /** JSON: [{ column, text, sum }] the columns counted (and summed). */
    .addColumn('vals', 'text', (c) => c.notNull())
    .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('uses', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    /** What the summary cost before (p50 ms of its slow runs) and how long the fill held the write lock. */
    .addColumn('cost_ms', 'integer', (c) => c.notNull())
    .addColumn('build_ms', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('data_rollups_entity').on('data_rollups').columns(['entity_id']).execute();
}
