import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Flows (programs; datasets later) as documents: the draft the builder edits, numbered released
 * versions, and the run log (one row per run, with its per-step trace, kept for a retention period).
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('flows')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('module_id', 'varchar(24)')
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    /** JSON {_process, _option}: what the editor saves. */
    .addColumn('draft', 'text', (c) => c.notNull())
    /** JSON {_process, _option} end users run; null until the first release. */
    .addColumn('released', 'text')
    .addColumn('released_version', 'integer')
    .addColumn('last_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('flows_project').on('flows').columns(['project_id', 'sort']).execute();
  await db.schema
    .createTable('flow_versions')
    .addColumn('flow_id', 'varchar(24)', (c) => c.notNull().references('flows.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('created_by', 'varchar(24)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('flow_versions_pk', ['flow_id', 'version'])
    .execute();
  await db.schema
    .createTable('program_runs')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('flow_id', 'varchar(24)', (c) => c.notNull())
    .addColumn('version', 'integer')
    .addColumn('user_id', 'varchar(24)')
    /** exec | test | display */
    .addColumn('trigger', 'varchar(16)', (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    /** ok | failed | rolled-back (test runs) */
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('error_code', 'integer')
    .addColumn('error_step', 'varchar(64)')
    .addColumn('message', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('trace', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('program_runs_flow')
    .on('program_runs')
    .columns(['project_id', 'flow_id', 'created_at'])
    .execute();
}
