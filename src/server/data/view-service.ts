/**
 * Saved filters of the end user's data views and the role default filter of a table, kept in the
 * shared key/value store (model `filter`): a saved filter under `{entity}.{id}` of its type (private
 * ones under the user), a role's default under `role.{role}.{entity}` of type `project`. Every value
 * is parsed defensively on save and on read against the fields the caller may see.
 */
import type { Kysely } from 'kysely';
import { newId } from '../../shared/id.ts';
import { conditionsQuery } from '../../shared/query/conditions.ts';
import { normalizeOrThrow, QueryError } from '../../shared/query/index.ts';
import { type StaleCondition, splitStale } from '../../shared/view-filters.ts';
import type { DB } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import { findItem, listItems, putItem, removeItem, type ShareType } from '../share/service.ts';
import type { EntityMeta } from './meta.ts';

export const FILTER_MODEL = 'filter';
/** Saved filters of one table a user may keep per type. */
export const SAVED_FILTERS_MAX = 200;
const CONDITIONS_MAX = 50;

export interface SavedCondition {
  field: string;
  opt: string;
  value?: unknown;
}

export interface FilterSpec {
  conditions: SavedCondition[];
  match: 'and' | 'or';
}

export interface SavedFilter {
  id: string;
  name: string;
  type: ShareType;
  filter: FilterSpec;
  createdBy: string | null;
  /** Conditions left out because the fields they name changed (src/shared/view-filters.ts). */
  stale?: StaleCondition[];
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A filter as stored and sent: conditions on fields the caller sees, with operators and values the
 * query language takes. Unknown or hidden fields → VIEW_FILTER_FIELD; anything else → VIEW_FILTER_INVALID.
 */
export function parseFilter(raw: unknown, meta: EntityMeta): FilterSpec {
  if (!isObj(raw)) fail(E.VIEW_FILTER_INVALID, 'filter: expected { conditions, match }');
  const list = raw.conditions;
  const match = raw.match ?? 'and';
  if (match !== 'and' && match !== 'or') fail(E.VIEW_FILTER_INVALID, 'match: and or or');
  if (!Array.isArray(list) || list.length > CONDITIONS_MAX)
    fail(E.VIEW_FILTER_INVALID, `conditions: a list of at most ${CONDITIONS_MAX}`);
  const conditions: SavedCondition[] = list.map((c, i) => {
    if (!isObj(c) || typeof c.field !== 'string' || typeof c.opt !== 'string')
      fail(E.VIEW_FILTER_INVALID, `conditions[${i}]: expected { field, opt, value? }`);
    if (!Object.hasOwn(meta.queryTypes, c.field)) fail(E.VIEW_FILTER_FIELD, `conditions[${i}].field`);
    return { field: c.field, opt: c.opt, ...(c.value !== undefined ? { value: c.value } : {}) };
  });
  const fields = meta.fields.map((f) => ({ key: f.code, type: f.type }));
  const query = conditionsQuery(
    conditions.map((c, i) => ({ ...c, id: i })),
    match,
    fields,
  );
  try {
    normalizeOrThrow({ query }, { now: Date.now(), fields: meta.queryTypes });
  } catch (e) {
    if (e instanceof QueryError) fail(E.VIEW_FILTER_INVALID, `${e.path}: ${e.detail}`);
    throw e;
  }
  return { conditions, match };
}

/** The filter's query clause (undefined when it filters nothing). */
export function filterQuery(spec: FilterSpec, meta: EntityMeta): unknown {
  const fields = meta.fields.map((f) => ({ key: f.code, type: f.type }));
  return conditionsQuery(
    spec.conditions.map((c, i) => ({ ...c, id: i })),
    spec.match,
    fields,
  );
}

/**
 * A stored value as a saved filter, or null when it is not one. Conditions on fields the table no
 * longer has (for this caller), or whose type changed under them, are left out of `filter` and listed
 * in `stale`, so the filter still applies what fits and the view can say what it left out.
 */
function readSaved(value: string, type: ShareType, meta: EntityMeta): SavedFilter | null {
  try {
    const v = JSON.parse(value) as unknown;
    if (!isObj(v) || typeof v.id !== 'string' || typeof v.name !== 'string') return null;
    const f = v.filter;
    if (!isObj(f) || !Array.isArray(f.conditions)) return null;
    const shaped = f.conditions.filter(
      (c): c is SavedCondition => isObj(c) && typeof c.field === 'string' && typeof c.opt === 'string',
    );
    const fields = meta.fields.map((x) => ({ key: x.code, type: x.type }));
    const { fresh, stale } = splitStale(shaped, fields);
    return {
      id: v.id,
      name: v.name,
      type,
      filter: parseFilter({ conditions: fresh, match: f.match }, meta),
      createdBy: typeof v.createdBy === 'string' ? v.createdBy : null,
      ...(stale.length ? { stale } : {}),
    };
  } catch {
    return null;
  }
}

const ownerOf = (type: ShareType, userId: string | null) => (type === 'private' ? (userId ?? '') : '');
const keyOf = (meta: EntityMeta, id: string) => `${meta.entity.id}.${id}`;

/** The saved filters of a table the caller may use: their own private ones, public and project ones. */
export async function listSavedFilters(
  db: Kysely<DB>,
  projectId: string,
  meta: EntityMeta,
  userId: string | null,
): Promise<SavedFilter[]> {
  const out: SavedFilter[] = [];
  for (const type of ['private', 'public', 'project'] as const) {
    if (type === 'private' && !userId) continue;
    const rows = await listItems(db, {
      projectId,
      model: FILTER_MODEL,
      type,
      owner: ownerOf(type, userId),
    });
    for (const r of rows) {
      if (!r.key.startsWith(`${meta.entity.id}.`)) continue;
      const f = readSaved(r.value, type, meta);
      if (f) out.push(f);
    }
  }
  return out;
}

/** One saved filter with its stored row (its creator decides who may change it). */
export async function findSavedFilter(
  db: Kysely<DB>,
  projectId: string,
  meta: EntityMeta,
  type: ShareType,
  id: string,
  userId: string | null,
) {
  const k = {
    projectId,
    model: FILTER_MODEL,
    type,
    owner: ownerOf(type, userId),
    key: keyOf(meta, id),
  };
  const row = type === 'private' && !userId ? undefined : await findItem(db, k);
  if (!row) fail(E.VIEW_FILTER_NOT_FOUND);
  return { k, row };
}

/** Store a saved filter (a new id when none is given); answers it. */
export async function putSavedFilter(
  db: Kysely<DB>,
  projectId: string,
  meta: EntityMeta,
  f: { id?: string; name: string; type: ShareType; filter: FilterSpec },
  userId: string | null,
  existing: boolean,
  createdBy: string | null,
): Promise<SavedFilter> {
  const id = f.id ?? newId();
  const k = {
    projectId,
    model: FILTER_MODEL,
    type: f.type,
    owner: ownerOf(f.type, userId),
    key: keyOf(meta, id),
  };
  if (!existing) {
    const count = (
      await listItems(db, { projectId, model: FILTER_MODEL, type: f.type, owner: k.owner })
    ).filter((r) => r.key.startsWith(`${meta.entity.id}.`)).length;
    if (count >= SAVED_FILTERS_MAX) fail(E.VIEW_FILTER_LIMIT);
  }
  const saved: SavedFilter = { id, name: f.name, type: f.type, filter: f.filter, createdBy };
  await putItem(db, k, JSON.stringify(saved), existing, userId);
  return saved;
}

export async function removeSavedFilter(
  db: Kysely<DB>,
  k: { projectId: string; model: string; type: ShareType; owner: string; key: string },
): Promise<void> {
  await removeItem(db, k);
}

const roleKey = (roleId: string, entityId: string) => ({
  model: FILTER_MODEL,
  type: 'project' as const,
  owner: '',
  key: `role.${roleId}.${entityId}`,
});

/**
 * The query clause a role's users of a table always get: null when the role has none. A stored
 * default that no longer fits the fields the caller sees matches nothing (it fails closed).
 */
export async function roleClause(
  db: Kysely<DB>,
  projectId: string,
  meta: EntityMeta,
  roleId: string | null | undefined,
): Promise<unknown> {
  const spec = await roleFilter(db, projectId, meta, roleId);
  if (spec === null) return null;
  if (spec === 'unusable') return { field: '_id', type: '_id', opt: 'set', value: [] };
  return filterQuery(spec, meta) ?? null;
}

/** A role's stored default filter of a table: null (none), or 'unusable' for the caller's fields. */
export async function roleFilter(
  db: Kysely<DB>,
  projectId: string,
  meta: EntityMeta,
  roleId: string | null | undefined,
): Promise<FilterSpec | null | 'unusable'> {
  if (!roleId) return null;
  const row = await findItem(db, { projectId, ...roleKey(roleId, meta.entity.id) });
  if (!row) return null;
  try {
    const spec = parseFilter(JSON.parse(row.value), meta);
    return spec.conditions.length ? spec : null;
  } catch {
    return 'unusable';
  }
}

/** The request body of a data call with the role's default filter joined to its query. */
export function withClause(body: unknown, clause: unknown): unknown {
  if (clause === null || clause === undefined) return body;
  const b = isObj(body) ? body : {};
  const q = b.query;
  const query = q === undefined || q === null ? clause : { $and: [clause, q] };
  return { ...b, query };
}

/** Set (or clear with null) a role's default filter of a table. */
export async function setRoleFilter(
  db: Kysely<DB>,
  projectId: string,
  entityId: string,
  roleId: string,
  spec: FilterSpec | null,
  userId: string | null,
): Promise<void> {
  const k = { projectId, ...roleKey(roleId, entityId) };
  const existing = await findItem(db, k);
  if (!spec) {
    if (existing) await removeItem(db, k);
    return;
  }
  await putItem(db, k, JSON.stringify(spec), !!existing, userId);
}
