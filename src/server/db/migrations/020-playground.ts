import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * The playground's sample apps loaded into a project (src/server/demo/playground.ts): one row per
 * (project, app) with the ids of what the loader created, so `/playground/{app}` finds its page and a
 * restart loads only the apps added since.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('playground_apps')
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('app', 'varchar(64)', (c) => c.notNull())
    /** JSON: the LoadedApp (module, tables, pages, programs, datasets, seed row ids, entry, params). */
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('playground_apps_pk', ['project_id', 'app'])
    .execute();
}
