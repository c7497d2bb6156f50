import type { Kysely } from 'kysely';
import type { FieldMap, FieldType as QueryType } from '../../shared/query/index.ts';
import type { DB } from '../db/schema.ts';
import { parseJson } from '../project/service.ts';
import { entityTable, type FieldType, fieldColumn, linkTable } from './ddl.ts';
import type { ColumnMap } from './sql-query.ts';
import { type EntityRow, type FieldRow, findEntity } from './schema-service.ts';

/** What queries and writes need to know about one builder table. */
export interface EntityMeta {
  entity: EntityRow;
  table: string;
  fields: FieldRow[];
  byCode: Map<string, FieldRow>;
  columns: ColumnMap;
  /** Field code → query type, for normalize and the reference evaluator. */
  queryTypes: FieldMap;
  /** The field whose value names a record (`__name`): the first string field. */
  nameField: FieldRow | undefined;
  /** Decimal digits per number field (`_option.decimals`), when set. */
  decimals: Map<string, number>;
}

export function queryType(type: FieldType): QueryType {
  switch (type) {
    case 'string':
    case 'image':
      return 'text';
    default:
      return type;
  }
}

export function buildMeta(entity: EntityRow, fields: FieldRow[]): EntityMeta {
  const sorted = [...fields].sort((a, b) => a.sort - b.sort || (a.id < b.id ? -1 : 1));
  const columns: ColumnMap = {};
  const queryTypes: FieldMap = {};
  const byCode = new Map<string, FieldRow>();
  const decimals = new Map<string, number>();
  for (const f of sorted) {
    const type = f.type as FieldType;
    byCode.set(f.code, f);
    columns[f.code] = { type: queryType(type), column: type === 'collection' ? linkTable(f.id) : fieldColumn(f.id) };
    queryTypes[f.code] = queryType(type);
    if (type === 'number') {
      const d = parseJson<{ decimals?: unknown }>(f.options, {}).decimals;
      if (Number.isInteger(d) && (d as number) >= 0 && (d as number) <= 10) decimals.set(f.code, d as number);
    }
  }
  return {
    entity,
    table: entityTable(entity.id),
    fields: sorted,
    byCode,
    columns,
    queryTypes,
    nameField: sorted.find((f) => f.type === 'string'),
    decimals,
  };
}

/** Load the meta of a project's entity by `_id` or code (answers the not-found error otherwise). */
export async function loadMeta(db: Kysely<DB>, projectId: string, ref: string): Promise<EntityMeta> {
  const entity = await findEntity(db, projectId, ref);
  const fields = await db.selectFrom('data_fields').selectAll().where('entity_id', '=', entity.id).execute();
  return buildMeta(entity, fields);
}
