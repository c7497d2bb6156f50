import type { Kysely } from 'kysely';
import { type FieldOption, QUERY_TYPE_OF_FIELD } from '../../shared/api/fields.ts';
import type { FieldMap } from '../../shared/query/index.ts';
import type { DB } from '../db/schema.ts';
import { parseJson } from '../project/service.ts';
import { entityTable, type FieldType, fieldColumn, linkTable } from './ddl.ts';
import { type EntityRow, type FieldRow, findEntity } from './schema-service.ts';
import type { ColumnMap } from './sql-query.ts';

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
  /** Each field's parsed `_option` (option lists are checked on every save and import). */
  options: Map<string, FieldOption>;
}

export function buildMeta(entity: EntityRow, fields: FieldRow[]): EntityMeta {
  const sorted = [...fields].sort((a, b) => a.sort - b.sort || (a.id < b.id ? -1 : 1));
  const columns: ColumnMap = {};
  const queryTypes: FieldMap = {};
  const byCode = new Map<string, FieldRow>();
  const decimals = new Map<string, number>();
  const options = new Map<string, FieldOption>();
  for (const f of sorted) {
    options.set(f.code, parseJson<FieldOption>(f.options, {}));
    const type = f.type as FieldType;
    byCode.set(f.code, f);
    columns[f.code] = {
      type: QUERY_TYPE_OF_FIELD[type],
      column: type === 'collection' ? linkTable(f.id) : fieldColumn(f.id),
    };
    queryTypes[f.code] = QUERY_TYPE_OF_FIELD[type];
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
    options,
  };
}

interface Cached {
  project: string;
  version: number;
  full: EntityMeta;
  visible: EntityMeta;
}

/**
 * Metas by entity id, valid for one entity version (`updated_at`, which every field change bumps via
 * `bumpEntityVersion`). A data call then reads only the entity row; the field rows come from here.
 * Keyed per database so test apps sharing a process never mix.
 */
const caches = new WeakMap<object, Map<string, Cached>>();
const MAX_CACHED = 2000;

/** The meta of an entity row: all fields, or without hidden fields (what non-managers see). */
export async function metaOf(db: Kysely<DB>, entity: EntityRow, visibleOnly = false): Promise<EntityMeta> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let hit = cache.get(entity.id);
  if (!hit || hit.version !== Number(entity.updated_at)) {
    const fields = await db
      .selectFrom('data_fields')
      .selectAll()
      .where('entity_id', '=', entity.id)
      .execute();
    hit = {
      project: entity.project_id,
      version: Number(entity.updated_at),
      full: buildMeta(entity, fields),
      visible: buildMeta(
        entity,
        fields.filter((f) => f.hide !== 1),
      ),
    };
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(entity.id, hit);
  }
  return visibleOnly ? hit.visible : hit.full;
}

/** Forget a project's cached metas (after a change made outside the app); answers how many. */
export function clearMetaCache(db: Kysely<DB>, projectId: string): number {
  const cache = caches.get(db);
  let n = 0;
  for (const [id, hit] of cache ?? []) {
    if (hit.project !== projectId) continue;
    cache!.delete(id);
    n++;
  }
  return n;
}

/** Load the meta of a project's entity by `_id` or code (answers the not-found error otherwise). */
export async function loadMeta(db: Kysely<DB>, projectId: string, ref: string): Promise<EntityMeta> {
  return metaOf(db, await findEntity(db, projectId, ref));
}

/** The metas of the tables `meta`'s collection fields point at (same project), by field code. */
export async function collectionTargets(
  db: Kysely<DB>,
  meta: EntityMeta,
  visibleOnly: boolean,
): Promise<Map<string, EntityMeta>> {
  const targets = new Map<string, EntityMeta>();
  for (const f of meta.fields) {
    if (f.type !== 'collection' || !f.relate_id) continue;
    const entity = await db
      .selectFrom('data_entities')
      .selectAll()
      .where('id', '=', f.relate_id)
      .where('project_id', '=', meta.entity.project_id)
      .executeTakeFirst();
    if (entity) targets.set(f.code, await metaOf(db, entity, visibleOnly));
  }
  return targets;
}
