import { type Kysely, sql } from 'kysely';
import { FIELD_TYPES, type FieldType } from '../../shared/api/fields.ts';
import type { Dialect } from '../db/index.ts';

/**
 * DDL for builder tables. Names are derived from our own 24-hex ids only (`e_<id>`, `c_<id>`,
 * `l_<id>`), never from user text, so no identifier ever carries input.
 */

export { FIELD_TYPES, type FieldType };

const HEX24 = /^[0-9a-f]{24}$/;

function checkId(id: string): string {
  if (!HEX24.test(id)) throw new Error(`not an id: ${id}`);
  return id;
}

export const entityTable = (entityId: string) => `e_${checkId(entityId)}`;
export const fieldColumn = (fieldId: string) => `c_${checkId(fieldId)}`;
export const linkTable = (fieldId: string) => `l_${checkId(fieldId)}`;

/** The SQL column type of a scalar field type. */
function columnType(type: FieldType, dialect: Dialect) {
  switch (type) {
    case 'number':
      return dialect === 'postgres' ? sql`double precision` : sql`real`;
    case 'date':
      return sql`bigint`;
    case 'time':
      return sql`varchar(8)`;
    case 'relate':
      return sql`varchar(24)`;
    case 'boolean':
      return sql`smallint`;
    case 'email':
      return sql`varchar(254)`;
    case 'phone':
      return sql`varchar(40)`;
    default:
      return sql`text`;
  }
}

/** Types whose column gets an index (what views sort and filter on). */
const INDEXED: ReadonlySet<FieldType> = new Set([
  'number',
  'date',
  'time',
  'relate',
  'string',
  'boolean',
  'option',
  'email',
  'phone',
]);

export async function createEntityTable(db: Kysely<unknown>, entityId: string): Promise<void> {
  const t = entityTable(entityId);
  await db.schema
    .createTable(t)
    .addColumn('_id', 'varchar(24)', (c) => c.primaryKey())
    .addColumn('_created_at', 'bigint', (c) => c.notNull())
    .addColumn('_updated_at', 'bigint', (c) => c.notNull())
    .addColumn('_creator', 'varchar(24)')
    .execute();
  await db.schema.createIndex(`${t}_created`).on(t).column('_created_at').execute();
}

export async function dropEntityTable(db: Kysely<unknown>, entityId: string): Promise<void> {
  await db.schema.dropTable(entityTable(entityId)).ifExists().execute();
}

export async function addFieldStorage(
  db: Kysely<unknown>,
  dialect: Dialect,
  entityId: string,
  fieldId: string,
  type: FieldType,
): Promise<void> {
  if (type === 'collection') {
    const l = linkTable(fieldId);
    await db.schema
      .createTable(l)
      .addColumn('owner_id', 'varchar(24)', (c) => c.notNull())
      .addColumn('target_id', 'varchar(24)', (c) => c.notNull())
      .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint(`${l}_pk`, ['owner_id', 'target_id'])
      .execute();
    await db.schema.createIndex(`${l}_target`).on(l).column('target_id').execute();
    return;
  }
  const t = entityTable(entityId);
  const c = fieldColumn(fieldId);
  await db.schema.alterTable(t).addColumn(c, columnType(type, dialect)).execute();
  if (INDEXED.has(type)) await db.schema.createIndex(`${t}_${c}`).on(t).column(c).execute();
}

export async function dropFieldStorage(
  db: Kysely<unknown>,
  entityId: string,
  fieldId: string,
  type: FieldType,
): Promise<void> {
  if (type === 'collection') {
    await db.schema.dropTable(linkTable(fieldId)).ifExists().execute();
    return;
  }
  const t = entityTable(entityId);
  const c = fieldColumn(fieldId);
  await db.schema.dropIndex(`${t}_${c}`).ifExists().execute();
  await db.schema.alterTable(t).dropColumn(c).execute();
}
