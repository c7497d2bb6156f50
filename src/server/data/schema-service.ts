import { type Kysely, sql, type Transaction } from 'kysely';
import type { Field, FieldInput, FieldOption } from '../../shared/api/fields.ts';
import type { Entity, Module } from '../../shared/api/tables.ts';
import { OPTIONS_MAX } from '../../shared/fields/values.ts';
import { newId } from '../../shared/id.ts';
import type { Dialect } from '../db/index.ts';
import type { DataEntitiesTable, DataFieldsTable, DataModulesTable, DB } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import { parseJson } from '../project/service.ts';
import {
  addFieldStorage,
  createEntityTable,
  dropEntityTable,
  dropFieldStorage,
  entityTable,
  type FieldType,
} from './ddl.ts';
import { checkFieldExtras } from './field-extras.ts';
import { schemaChanged } from './write-clock.ts';

export type EntityRow = DataEntitiesTable;
export type FieldRow = DataFieldsTable;
export type ModuleRow = DataModulesTable;

/** Codes (entity and field keys): a letter, then letters, digits or underscores; 1–32 characters. */
export const CODE = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;
/** Field codes that would shadow record keys. */
const RESERVED = new Set(['_id', 'id', '__name', '__entity', 'createdAt', 'updatedAt', 'creator']);

/** A module as the admin API answers it (the client reads the same type). */
export function apiModule(m: ModuleRow, entities: string[], flows: string[] = []): Module {
  return { _id: m.id, _name: m.name, _sort: m.sort, _entity: entities, _flow: flows, _api: [] };
}

/** A table as the admin API answers it (the client reads the same type). */
export function apiEntity(e: EntityRow): Entity {
  return { _id: e.id, _name: e.name, _code: e.code, _module: e.module_id, _sort: e.sort, _type: 'custom' };
}

/** A field as the admin API answers it (the client reads the same type). */
export function apiField(f: FieldRow): Field {
  return {
    _id: f.id,
    _entity: f.entity_id,
    _name: f.name,
    _field: f.code,
    _key: f.code,
    _code: f.code,
    _type: f.type as FieldType,
    _relate: f.relate_id ? [f.relate_id] : [],
    _option: parseJson<FieldOption>(f.options, {}),
    _hide: f.hide === 1,
    _sort: f.sort,
    _status: f.status as Field['_status'],
  };
}

/**
 * Mark an entity's fields as changed: `updated_at` is the version the meta cache keys on, so it
 * must strictly grow even when two changes fall in the same millisecond.
 */
export async function bumpEntityVersion(db: Kysely<DB>, entityIds: string[]): Promise<void> {
  if (entityIds.length === 0) return;
  const now = Date.now();
  await db
    .updateTable('data_entities')
    .set({ updated_at: sql<number>`CASE WHEN updated_at < ${now} THEN ${now} ELSE updated_at + 1 END` })
    .where('id', 'in', entityIds)
    .execute();
}

export async function listModules(db: Kysely<DB>, projectId: string) {
  const [mods, ents, flows] = await Promise.all([
    db
      .selectFrom('data_modules')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('sort')
      .orderBy('id')
      .execute(),
    db.selectFrom('data_entities').select(['id', 'module_id']).where('project_id', '=', projectId).execute(),
    db
      .selectFrom('flows')
      .select(['id', 'module_id'])
      .where('project_id', '=', projectId)
      .orderBy('sort')
      .orderBy('id')
      .execute(),
  ]);
  return mods.map((m) =>
    apiModule(
      m,
      ents.filter((e) => e.module_id === m.id).map((e) => e.id),
      flows.filter((f) => f.module_id === m.id).map((f) => f.id),
    ),
  );
}

export async function listEntities(db: Kysely<DB>, projectId: string): Promise<EntityRow[]> {
  return db
    .selectFrom('data_entities')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

export async function listFields(db: Kysely<DB>, projectId: string, entityId?: string): Promise<FieldRow[]> {
  let q = db.selectFrom('data_fields').selectAll().where('project_id', '=', projectId);
  if (entityId) q = q.where('entity_id', '=', entityId);
  return q.orderBy('entity_id').orderBy('sort').orderBy('id').execute();
}

/** An entity of the project by `_id` or by code. */
export async function findEntity(db: Kysely<DB>, projectId: string, idOrCode: string): Promise<EntityRow> {
  const e = await db
    .selectFrom('data_entities')
    .selectAll()
    .where('project_id', '=', projectId)
    .where((eb) => eb.or([eb('id', '=', idOrCode), eb('code', '=', idOrCode)]))
    .executeTakeFirst();
  if (!e) fail(E.ENTITY_NOT_FOUND);
  return e;
}

/**
 * The table a sheet name stands for: its `_id` or code, else the one table with that name (an
 * exported sheet is named after its table, without the characters sheet names forbid).
 */
export async function entityBySheetName(
  db: Kysely<DB>,
  projectId: string,
  sheet: string,
): Promise<EntityRow> {
  const name = sheet.trim();
  const all = await db.selectFrom('data_entities').selectAll().where('project_id', '=', projectId).execute();
  const exact = all.find((e) => e.id === name || e.code === name);
  if (exact) return exact;
  const clean = (s: string) =>
    s
      .replace(/[[\]:*?/\\]/g, '')
      .trim()
      .slice(0, 31)
      .toLowerCase();
  const named = all.filter((e) => clean(e.name) === clean(name));
  if (named.length === 1) return named[0]!;
  if (named.length > 1)
    fail(E.ENTITY_NOT_FOUND, `several tables are named ${name.slice(0, 64)}: name one with ?entity=`);
  fail(E.ENTITY_NOT_FOUND, `no table is named ${name.slice(0, 64)}: name one with ?entity=`);
}

export async function findField(db: Kysely<DB>, entity: EntityRow, fieldId: string): Promise<FieldRow> {
  const f = await db
    .selectFrom('data_fields')
    .selectAll()
    .where('entity_id', '=', entity.id)
    .where((eb) => eb.or([eb('id', '=', fieldId), eb('code', '=', fieldId)]))
    .executeTakeFirst();
  if (!f) fail(E.FIELD_NOT_FOUND);
  return f;
}

export async function assertModule(db: Kysely<DB>, projectId: string, moduleId: string | null | undefined) {
  if (!moduleId) return;
  const m = await db
    .selectFrom('data_modules')
    .select('id')
    .where('id', '=', moduleId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!m) fail(E.MODULE_NOT_FOUND);
}

function checkName(name: string): string {
  const n = name.trim();
  if (!n) fail(E.INVALID_FIELD, 'name: cannot be empty');
  return n;
}

function checkCode(code: string, what: string): string {
  if (!CODE.test(code))
    fail(E.INVALID_FIELD, `${what}: must start with a letter; letters, digits, _; at most 32`);
  return code;
}

export async function createModule(db: Kysely<DB>, projectId: string, name: string, sort = 0) {
  const row: ModuleRow = {
    id: newId(),
    project_id: projectId,
    name: checkName(name),
    sort,
    created_at: Date.now(),
  };
  await db.insertInto('data_modules').values(row).execute();
  return apiModule(row, []);
}

export async function updateModule(
  db: Kysely<DB>,
  projectId: string,
  id: string,
  patch: { name?: string; sort?: number },
) {
  await assertModule(db, projectId, id);
  const set: Partial<ModuleRow> = {};
  if (patch.name !== undefined) set.name = checkName(patch.name);
  if (patch.sort !== undefined) set.sort = patch.sort;
  if (Object.keys(set).length) await db.updateTable('data_modules').set(set).where('id', '=', id).execute();
}

/** Removing a module keeps its tables: they just leave the group. */
export async function removeModule(db: Kysely<DB>, projectId: string, id: string) {
  await assertModule(db, projectId, id);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('data_entities').set({ module_id: null }).where('module_id', '=', id).execute();
    await trx.updateTable('flows').set({ module_id: null }).where('module_id', '=', id).execute();
    await trx.deleteFrom('data_modules').where('id', '=', id).execute();
  });
}

export async function createEntity(
  db: Kysely<DB>,
  projectId: string,
  input: { name: string; code?: string; module?: string | null },
): Promise<EntityRow> {
  const id = newId();
  const code = input.code ? checkCode(input.code, 'code') : `t${id.slice(-10)}`;
  await assertModule(db, projectId, input.module);
  const taken = await db
    .selectFrom('data_entities')
    .select('id')
    .where('project_id', '=', projectId)
    .where('code', '=', code)
    .executeTakeFirst();
  if (taken) fail(E.CODE_TAKEN, `code: ${code}`);
  const now = Date.now();
  const row: EntityRow = {
    id,
    project_id: projectId,
    module_id: input.module || null,
    name: checkName(input.name),
    code,
    sort: now % 1_000_000_000,
    created_at: now,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('data_entities').values(row).execute();
    await createEntityTable(trx as Transaction<unknown>, id);
  });
  schemaChanged(projectId);
  return row;
}

export async function updateEntity(
  db: Kysely<DB>,
  entity: EntityRow,
  patch: { name?: string; code?: string; module?: string | null; sort?: number },
): Promise<EntityRow> {
  const set: Partial<EntityRow> = { updated_at: Date.now() };
  if (patch.name !== undefined) set.name = checkName(patch.name);
  if (patch.code !== undefined && patch.code !== entity.code) {
    set.code = checkCode(patch.code, 'code');
    const taken = await db
      .selectFrom('data_entities')
      .select('id')
      .where('project_id', '=', entity.project_id)
      .where('code', '=', set.code)
      .executeTakeFirst();
    if (taken) fail(E.CODE_TAKEN, `code: ${set.code}`);
  }
  if (patch.module !== undefined) {
    await assertModule(db, entity.project_id, patch.module);
    set.module_id = patch.module || null;
  }
  if (patch.sort !== undefined) set.sort = patch.sort;
  await db.updateTable('data_entities').set(set).where('id', '=', entity.id).execute();
  schemaChanged(entity.project_id);
  return { ...entity, ...set };
}

/** What removing an entity takes with it: its rows, its fields, and fields of other tables pointing at it. */
export async function entityRemovalImpact(db: Kysely<DB>, entity: EntityRow) {
  const rows = await countRows(db, entity.id);
  const pointing = await db
    .selectFrom('data_fields')
    .selectAll()
    .where('relate_id', '=', entity.id)
    .where('entity_id', '!=', entity.id)
    .execute();
  return { rows, pointing };
}

export async function countRows(db: Kysely<DB>, entityId: string): Promise<number> {
  const r = await (db as unknown as Kysely<Record<string, { _id: string }>>)
    .selectFrom(entityTable(entityId))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function removeEntity(db: Kysely<DB>, dialect: Dialect, entity: EntityRow): Promise<void> {
  const { pointing } = await entityRemovalImpact(db, entity);
  const own = await db.selectFrom('data_fields').selectAll().where('entity_id', '=', entity.id).execute();
  void dialect;
  await db.transaction().execute(async (trx) => {
    const t = trx as Transaction<unknown>;
    for (const f of pointing) {
      await dropFieldStorage(t, f.entity_id, f.id, f.type as FieldType);
      await trx.deleteFrom('data_fields').where('id', '=', f.id).execute();
    }
    for (const f of own)
      if (f.type === 'collection') await dropFieldStorage(t, f.entity_id, f.id, 'collection');
    await trx.deleteFrom('data_fields').where('entity_id', '=', entity.id).execute();
    await trx.deleteFrom('data_entities').where('id', '=', entity.id).execute();
    await dropEntityTable(t, entity.id);
    await bumpEntityVersion(trx, [...new Set(pointing.map((f) => f.entity_id))]);
  });
  schemaChanged(entity.project_id);
}

const OPTION_ITEM_MAX = 200;

/** Option fields need a list of distinct, short, non-empty options (at most OPTIONS_MAX). */
function checkOptionList(type: FieldType, option: FieldOption | undefined): void {
  if (type !== 'option' && type !== 'options') return;
  // A field naming an option set takes its values from the set (checked by checkFieldExtras).
  if (option?.info?.selection !== undefined) return;
  const raw = option?.info?.list;
  if (!Array.isArray(raw) || raw.length === 0) fail(E.FIELD_OPTIONS_REQUIRED);
  if (raw.length > OPTIONS_MAX) fail(E.FIELD_OPTIONS_REQUIRED, `at most ${OPTIONS_MAX} options`);
  for (const x of raw) {
    if (typeof x !== 'string' || x.trim() === '' || x.length > OPTION_ITEM_MAX)
      fail(E.FIELD_OPTIONS_REQUIRED, `each option is text of 1 to ${OPTION_ITEM_MAX} characters`);
  }
  if (new Set(raw).size !== raw.length) fail(E.FIELD_OPTIONS_REQUIRED, 'options must differ');
}

export async function createField(
  db: Kysely<DB>,
  dialect: Dialect,
  entity: EntityRow,
  input: FieldInput,
): Promise<FieldRow> {
  const id = newId();
  const code = input.field ? checkCode(input.field, 'field') : `f${id.slice(-10)}`;
  if (RESERVED.has(code)) fail(E.INVALID_FIELD, `field: ${code} is reserved`);
  let relateId: string | null = null;
  if (input.type === 'relate' || input.type === 'collection') {
    if (!input.relate) fail(E.INVALID_FIELD, 'relate: choose the related table');
    relateId = (await findEntity(db, entity.project_id, input.relate)).id;
  }
  checkOptionList(input.type, input.option);
  await checkFieldExtras(db, entity.project_id, input.type, input.option);
  const taken = await db
    .selectFrom('data_fields')
    .select('id')
    .where('entity_id', '=', entity.id)
    .where('code', '=', code)
    .executeTakeFirst();
  if (taken) fail(E.CODE_TAKEN, `field: ${code}`);
  const now = Date.now();
  const count = await db
    .selectFrom('data_fields')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('entity_id', '=', entity.id)
    .executeTakeFirstOrThrow();
  const row: FieldRow = {
    id,
    project_id: entity.project_id,
    entity_id: entity.id,
    name: checkName(input.name),
    code,
    type: input.type,
    relate_id: relateId,
    options: JSON.stringify(input.option ?? {}),
    hide: input.hide ? 1 : 0,
    sort: input.sort ?? Number(count.n),
    status: 'normal',
    created_at: now,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('data_fields').values(row).execute();
    await addFieldStorage(trx as Transaction<unknown>, dialect, entity.id, id, input.type);
    await bumpEntityVersion(trx, [entity.id]);
  });
  schemaChanged(entity.project_id);
  return row;
}

export async function updateField(
  db: Kysely<DB>,
  field: FieldRow,
  patch: Partial<FieldInput> & { status?: string },
): Promise<FieldRow> {
  if (patch.type !== undefined && patch.type !== field.type) fail(E.FIELD_TYPE_FIXED);
  const set: Partial<FieldRow> = { updated_at: Date.now() };
  if (patch.name !== undefined) set.name = checkName(patch.name);
  if (patch.field !== undefined && patch.field !== field.code) {
    set.code = checkCode(patch.field, 'field');
    if (RESERVED.has(set.code)) fail(E.INVALID_FIELD, `field: ${set.code} is reserved`);
    const taken = await db
      .selectFrom('data_fields')
      .select('id')
      .where('entity_id', '=', field.entity_id)
      .where('code', '=', set.code)
      .executeTakeFirst();
    if (taken) fail(E.CODE_TAKEN, `field: ${set.code}`);
  }
  if (patch.option !== undefined) {
    checkOptionList(field.type as FieldType, patch.option);
    await checkFieldExtras(db, field.project_id, field.type, patch.option);
    set.options = JSON.stringify(patch.option);
  }
  if (patch.hide !== undefined) set.hide = patch.hide ? 1 : 0;
  if (patch.sort !== undefined) set.sort = patch.sort;
  if (patch.status !== undefined) set.status = patch.status;
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('data_fields').set(set).where('id', '=', field.id).execute();
    await bumpEntityVersion(trx, [field.entity_id]);
  });
  schemaChanged(field.project_id);
  return { ...field, ...set };
}

export async function removeField(db: Kysely<DB>, field: FieldRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('data_fields').where('id', '=', field.id).execute();
    await dropFieldStorage(trx as Transaction<unknown>, field.entity_id, field.id, field.type as FieldType);
    await bumpEntityVersion(trx, [field.entity_id]);
  });
  schemaChanged(field.project_id);
}
