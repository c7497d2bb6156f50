import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/** Roles with their grants, menus (routes), invitations; child sessions scoped to one project. */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('roles')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    // JSON {apply, enable, reg}
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('{}'))
    // JSON {type: route|dataset|page|function, value} or null
    .addColumn('home', 'text')
    // JSON {route, program, entity, shortcut, dataset, page, simple}: lists of ids
    .addColumn('grants', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('roles_project').on('roles').column('project_id').execute();

  await db.schema
    .createTable('routes')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('parent_id', 'varchar(24)')
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('value', 'varchar(255)')
    // JSON list of bound program ids
    .addColumn('programs', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('routes_project').on('routes').columns(['project_id', 'sort']).execute();

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('code', 'varchar(16)', (c) => c.notNull().unique())
    .addColumn('link', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('role_id', 'varchar(24)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('open'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(24)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('invitations_project').on('invitations').column('project_id').execute();

  // A child token acts as a sub-user inside one project only.
  await db.schema.alterTable('sessions').addColumn('project_id', 'varchar(24)').execute();
}
