import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * The data model's catalogue: modules group entities (builder tables); each entity is a real SQL
 * table `e_<entity id>` and each field a real column `c_<field id>` (collections: a link table
 * `l_<field id>`). These catalogue tables say what exists; DDL in data/ddl.ts makes it so.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('data_modules')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('data_modules_project').on('data_modules').column('project_id').execute();

  await db.schema
    .createTable('data_entities')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('module_id', 'varchar(24)')
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('code', 'varchar(64)', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('data_entities_code', ['project_id', 'code'])
    .execute();

  await db.schema
    .createTable('data_fields')
    .addColumn('id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(24)', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('entity_id', 'varchar(24)', (c) =>
      c.notNull().references('data_entities.id').onDelete('cascade'),
    )
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('code', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('relate_id', 'varchar(24)')
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('hide', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('normal'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('data_fields_code', ['entity_id', 'code'])
    .execute();
  await db.schema.createIndex('data_fields_relate').on('data_fields').column('relate_id').execute();
}
