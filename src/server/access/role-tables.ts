/**
 * A role's advanced settings of one data table (builder spec §2 permission management, "per-table
 * advanced config"): the programs that role's members may run on the table. The default filter of
 * the pair lives with the data views (data/view-service.ts `role.{role}.{entity}` of model `filter`);
 * the allowed programs are kept in the shared store too (model `config`, type `project`, key
 * `role.{role}.{entity}`, value `{ programs: [id…] }`), so export/import remaps them like other ids.
 *
 * No item: every program the role is granted may run on the table. An item: only its programs; a
 * malformed item allows none (it fails closed).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import { findItem, putItem, removeItem } from '../share/service.ts';
import type { Actor } from './decide.ts';

export const ROLE_TABLE_MODEL = 'config';
export const ROLE_TABLE_PREFIX = 'role.';
export const ROLE_PROGRAMS_MAX = 200;
const HEX24 = /^[0-9a-f]{24}$/;

const itemKey = (projectId: string, roleId: string, entityId: string) => ({
  projectId,
  model: ROLE_TABLE_MODEL,
  type: 'project' as const,
  owner: '',
  key: `${ROLE_TABLE_PREFIX}${roleId}.${entityId}`,
});

/** Why a stored value is not a role-table setting, or null. */
export function roleTableProblem(v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'expected { programs }';
  for (const k of Object.keys(v)) if (k !== 'programs') return `${k}: unknown setting`;
  const list = (v as { programs?: unknown }).programs;
  if (!Array.isArray(list) || list.length > ROLE_PROGRAMS_MAX)
    return `programs: a list of at most ${ROLE_PROGRAMS_MAX} program ids`;
  if (!list.every((x) => typeof x === 'string' && HEX24.test(x))) return 'programs: program ids';
  return null;
}

function readPrograms(value: string): string[] {
  try {
    const v = JSON.parse(value) as unknown;
    return roleTableProblem(v) === null ? (v as { programs: string[] }).programs : [];
  } catch {
    return [];
  }
}

/** The programs a role may run on a table: null when the role has no such limit. */
export async function rolePrograms(
  db: Kysely<DB>,
  projectId: string,
  roleId: string,
  entityId: string,
): Promise<string[] | null> {
  const row = await findItem(db, itemKey(projectId, roleId, entityId));
  return row ? readPrograms(row.value) : null;
}

/** Every table a role limits programs on: entity id → allowed program ids. */
export async function roleProgramLimits(
  db: Kysely<DB>,
  projectId: string,
  roleId: string,
): Promise<Map<string, string[]>> {
  const prefix = `${ROLE_TABLE_PREFIX}${roleId}.`;
  const rows = await db
    .selectFrom('share_items')
    .select(['key', 'value'])
    .where('project_id', '=', projectId)
    .where('model', '=', ROLE_TABLE_MODEL)
    .where('type', '=', 'project')
    .where('owner_id', '=', '')
    .where('key', 'like', `${prefix}%`)
    .limit(5000)
    .execute();
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const entity = r.key.slice(prefix.length);
    if (HEX24.test(entity)) out.set(entity, readPrograms(r.value));
  }
  return out;
}

/** The limits that apply to an actor: builders (owner, admin roles) have none. */
export async function actorProgramLimits(
  db: Kysely<DB>,
  projectId: string,
  actor: Actor,
): Promise<Map<string, string[]>> {
  if (actor.kind === 'owner' || actor.kind === 'admin' || !actor.role) return new Map();
  return roleProgramLimits(db, projectId, actor.role.id);
}

/**
 * Set (or clear with null) the programs a role may run on a table. Every id must be a program of
 * the project (released or not: it may be released later); anything else → ROLE_PROGRAMS_INVALID.
 */
export async function setRolePrograms(
  db: Kysely<DB>,
  projectId: string,
  roleId: string,
  entityId: string,
  programs: string[] | null,
  userId: string | null,
): Promise<string[] | null> {
  const k = itemKey(projectId, roleId, entityId);
  const existing = await findItem(db, k);
  if (programs === null) {
    if (existing) await removeItem(db, k);
    return null;
  }
  const ids = [...new Set(programs)];
  const why = roleTableProblem({ programs: ids });
  if (why) fail(E.ROLE_PROGRAMS_INVALID, why);
  if (ids.length) {
    const found = await db
      .selectFrom('flows')
      .select('id')
      .where('project_id', '=', projectId)
      .where('type', '=', 'program')
      .where('id', 'in', ids)
      .execute();
    if (found.length !== ids.length) fail(E.ROLE_PROGRAMS_INVALID, 'programs: not programs of this project');
  }
  await putItem(db, k, JSON.stringify({ programs: ids }), !!existing, userId);
  return ids;
}

/** A table named by id or code (menu entries may hold either) → its id, for this project. */
export async function tableIds(db: Kysely<DB>, projectId: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('data_entities')
    .select(['id', 'code'])
    .where('project_id', '=', projectId)
    .execute();
  const out = new Map<string, string>();
  for (const r of rows) {
    out.set(r.id, r.id);
    if (r.code) out.set(r.code, r.id);
  }
  return out;
}
