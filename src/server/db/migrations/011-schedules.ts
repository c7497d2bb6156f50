import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Scheduled tasks: a program run on a Quartz cron (Beijing time), and one row per fire. The fire row
 * is the claim: UNIQUE(task, fire time) lets exactly one process run a fire, and it is the task's log
 * (time, state, result); missed fires are logged there too.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('schedules')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('cron', 'varchar(200)', (c) => c.notNull())
    .addColumn('flow_id', 'varchar(24)', (c) => c.notNull().references('flows.id').onDelete('cascade'))
    /** JSON: the form's options (its term fields), kept for the screen. */
    .addColumn('option', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'varchar(24)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    /** Grows on every change (create, update, toggle): the engines reload when it moves. */
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    /** Since when the current cron counts: fires before it are not missed (set on enable and cron change). */
    .addColumn('armed_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('schedules_project').on('schedules').columns(['project_id', 'name']).execute();
  await db.schema.createIndex('schedules_enabled').on('schedules').columns(['enabled']).execute();
  await db.schema
    .createTable('schedule_fires')
    .addColumn('task_id', 'varchar(24)', (c) => c.notNull().references('schedules.id').onDelete('cascade'))
    .addColumn('fire_time', 'bigint', (c) => c.notNull())
    /** running | success | fail | missed */
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    /** Which process claimed it (host:pid:random). */
    .addColumn('node', 'varchar(80)', (c) => c.notNull())
    .addColumn('run_id', 'varchar(24)')
    /** Text shown in the log: the run's output, the error, or the missed count. */
    .addColumn('result', 'text')
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .addPrimaryKeyConstraint('schedule_fires_pk', ['task_id', 'fire_time'])
    .execute();
  await db.schema
    .createIndex('schedule_fires_started')
    .on('schedule_fires')
    .columns(['started_at'])
    .execute();
}
