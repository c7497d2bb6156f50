/** Roles of a project: lookups scoped to the project, grant validation, member role-type sync. */
import type { Kysely } from 'kysely';
import { newId } from '../../shared/id.ts';
import type { DB } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import {
  GRANT_KINDS,
  type Grants,
  parseGrants,
  publicRole,
  type RoleHome,
  type RoleOptions,
  type RoleRow,
} from './grants.ts';

/** A role of this project; another project's role id is simply not found. */
export async function findRole(db: Kysely<DB>, projectId: string, roleId: string): Promise<RoleRow> {
  const row = await db
    .selectFrom('roles')
    .selectAll()
    .where('id', '=', roleId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!row) fail(E.ROLE_NOT_FOUND);
  return row;
}

/** A role members may be given: of this project and not the public one. */
export async function assignableRole(db: Kysely<DB>, projectId: string, roleId: string): Promise<RoleRow> {
  const role = await findRole(db, projectId, roleId);
  if (role.type === 'public') fail(E.INVALID_FIELD, 'role: the public role cannot be given to members');
  return role;
}

export async function listRoles(db: Kysely<DB>, projectId: string) {
  const roles = await db
    .selectFrom('roles')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const members = await db
    .selectFrom('project_members')
    .select(['user_id', 'role_id'])
    .where('project_id', '=', projectId)
    .where('role_id', 'is not', null)
    .execute();
  return roles.map((r) =>
    publicRole(
      r,
      members.filter((m) => m.role_id === r.id).map((m) => m.user_id),
    ),
  );
}

export async function createRole(
  db: Kysely<DB>,
  projectId: string,
  input: { name: string; type: RoleRow['type']; options?: Partial<RoleOptions>; home?: RoleHome | null },
): Promise<RoleRow> {
  const now = Date.now();
  const row: RoleRow = {
    id: newId(now),
    project_id: projectId,
    name: input.name,
    type: input.type,
    options: JSON.stringify(input.options ?? {}),
    home: input.home ? JSON.stringify(input.home) : null,
    grants: '{}',
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('roles').values(row).execute();
  return row;
}

/** Members' role type follows their role's type (admin roles may enter the workbench). */
export async function syncMemberTypes(db: Kysely<DB>, projectId: string, role: RoleRow): Promise<void> {
  if (role.type === 'public') return;
  if (role.type !== 'admin') await endDemotedChildTokens(db, projectId, role.id);
  await db
    .updateTable('project_members')
    .set({ role_type: role.type })
    .where('project_id', '=', projectId)
    .where('role_id', '=', role.id)
    .where('role_type', '!=', 'owner')
    .execute();
}

async function idsIn(db: Kysely<DB>, table: 'routes' | 'pages', projectId: string, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db
    .selectFrom(table)
    .select('id')
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

async function datasetIdsIn(db: Kysely<DB>, projectId: string, ids: string[]) {
  const rows = await db
    .selectFrom('flows')
    .select('id')
    .where('project_id', '=', projectId)
    .where('type', '=', 'dataset')
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Check that menus and pages named by grants or a home are this project's (another project's ids
 * answer the grant error), and so are datasets granted or a dataset home; programs and entities come
 * with their own areas and are kept as given, deduplicated.
 */
export async function checkGrants(
  db: Kysely<DB>,
  projectId: string,
  patch: Partial<Grants>,
  home: RoleHome | null | undefined,
): Promise<Partial<Grants>> {
  const out: Partial<Grants> = {};
  for (const kind of GRANT_KINDS) {
    const list = patch[kind];
    if (list) out[kind] = [...new Set(list)];
  }
  for (const kind of ['route', 'page'] as const) {
    const list = out[kind];
    if (!list) continue;
    const found = await idsIn(db, kind === 'route' ? 'routes' : 'pages', projectId, list);
    const missing = list.find((x) => !found.has(x));
    if (missing) fail(E.GRANT_INVALID, `${kind} ${missing}`);
  }
  if (home && (home.type === 'route' || home.type === 'page')) {
    const found = await idsIn(db, home.type === 'route' ? 'routes' : 'pages', projectId, [home.value]);
    if (!found.has(home.value)) fail(E.GRANT_INVALID, `home ${home.type} ${home.value}`);
  }
  // Datasets granted, or a dataset home: this project's datasets (not a program, not another's).
  const datasets = [...(out.dataset ?? []), ...(home?.type === 'dataset' && home.value ? [home.value] : [])];
  if (datasets.length) {
    const found = await datasetIdsIn(db, projectId, datasets);
    const missing = datasets.find((x) => !found.has(x));
    if (missing) fail(E.GRANT_INVALID, `dataset ${missing}`);
  }
  return out;
}

export function mergeGrants(role: RoleRow, patch: Partial<Grants>): string {
  return JSON.stringify({ ...parseGrants(role.grants), ...patch });
}

/** Members of a role losing admin rights lose the child tokens they opened in the project. */
export async function endDemotedChildTokens(
  db: Kysely<DB>,
  projectId: string,
  roleId: string,
): Promise<void> {
  const members = db
    .selectFrom('project_members')
    .select('user_id')
    .where('project_id', '=', projectId)
    .where('role_id', '=', roleId)
    .where('role_type', '!=', 'owner');
  const parents = db.selectFrom('sessions').select('token_hash').where('user_id', 'in', members);
  await db
    .deleteFrom('sessions')
    .where('parent_hash', 'in', parents)
    .where('project_id', '=', projectId)
    .execute();
}

/** Store a role's name, type, options and home; a changed type moves its members' role type along. */
export async function saveRole(
  db: Kysely<DB>,
  projectId: string,
  before: RoleRow,
  next: RoleRow,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('roles')
      .set({
        name: next.name,
        type: next.type,
        options: next.options,
        home: next.home,
        updated_at: next.updated_at,
      })
      .where('id', '=', before.id)
      .where('project_id', '=', projectId)
      .execute();
    if (next.type !== before.type) await syncMemberTypes(trx, projectId, next);
  });
}

/** Store a role's grants and home. */
export async function saveGrants(db: Kysely<DB>, projectId: string, next: RoleRow): Promise<void> {
  await db
    .updateTable('roles')
    .set({ grants: next.grants, home: next.home, updated_at: next.updated_at })
    .where('id', '=', next.id)
    .where('project_id', '=', projectId)
    .execute();
}

/**
 * Remove a role. Members keep their place in the project, with no grants, until given another role;
 * without its public role a project is closed to visitors again.
 */
export async function removeRole(db: Kysely<DB>, projectId: string, role: RoleRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (role.type === 'admin') await endDemotedChildTokens(trx, projectId, role.id);
    await trx
      .updateTable('project_members')
      .set({ role_id: null, role_type: 'common' })
      .where('project_id', '=', projectId)
      .where('role_id', '=', role.id)
      .where('role_type', '!=', 'owner')
      .execute();
    await trx.deleteFrom('roles').where('id', '=', role.id).where('project_id', '=', projectId).execute();
    if (role.type === 'public') {
      await trx
        .updateTable('projects')
        .set({ auth: 'admin', updated_at: Date.now() })
        .where('id', '=', projectId)
        .execute();
    }
  });
}

/** Open the project to visitors: its public role (made on first use) and `auth: public`. */
export function enablePublicRole(db: Kysely<DB>, projectId: string): Promise<RoleRow> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('roles')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('type', '=', 'public')
      .executeTakeFirst();
    const r = existing ?? (await createRole(trx, projectId, { name: 'public', type: 'public' }));
    await trx
      .updateTable('projects')
      .set({ auth: 'public', updated_at: Date.now() })
      .where('id', '=', projectId)
      .execute();
    return r;
  });
}
