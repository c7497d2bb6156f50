import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../index.ts';

/** Accounts, sessions, projects and their members, verification codes, captchas, pages. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const serial = dialect === 'postgres' ? 'serial' : 'integer';
  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('account', 'varchar(64)', (c) => c.unique())
    .addColumn('phone', 'varchar(32)', (c) => c.unique())
    .addColumn('nickname', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('pwd', 'varchar(255)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('avatar', 'text')
    .addColumn('parent_id', 'varchar(24)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(24)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('parent_hash', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_parent').on('sessions').column('parent_hash').execute();

  await db.schema
    .createTable('projects')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('owner_id', 'varchar(24)', (c) => c.notNull().references('users.id'))
    .addColumn('auth', 'varchar(16)', (c) => c.notNull().defaultTo('admin'))
    .addColumn('home', 'varchar(255)', (c) => c.notNull().defaultTo('/'))
    .addColumn('tier', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expired_at', 'bigint')
    .addColumn('limited', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('custom', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('projects_owner').on('projects').column('owner_id').execute();

  await db.schema
    .createTable('project_members')
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(24)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('role_id', 'varchar(24)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_members_pk', ['project_id', 'user_id'])
    .execute();
  await db.schema.createIndex('project_members_user').on('project_members').column('user_id').execute();

  await db.schema
    .createTable('verify_codes')
    .addColumn('id', serial as 'integer', (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('phone', 'varchar(32)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('verify_codes_phone').on('verify_codes').columns(['phone', 'type']).execute();

  await db.schema
    .createTable('captchas')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('answer', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('pages')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pages_project').on('pages').column('project_id').execute();
  void sql;
}
