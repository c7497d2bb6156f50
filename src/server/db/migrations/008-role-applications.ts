import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/** Applications to join a role (role option `apply`), decided by the project's managers. */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('role_applications')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(24)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role_id', 'varchar(24)', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    /** pending, approved or rejected. */
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('note', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .addColumn('decided_by', 'varchar(24)')
    .execute();
  await db.schema
    .createIndex('role_applications_project')
    .on('role_applications')
    .columns(['project_id', 'status', 'created_at'])
    .execute();
}
