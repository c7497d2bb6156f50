import type { Kysely } from 'kysely';
import { ACCURACY_DEFAULT, QUOTAS, type Tier } from '../../shared/constants.ts';
import { newId } from '../../shared/id.ts';
import type { DB, ProjectMembersTable, ProjectsTable } from '../db/schema.ts';
import { E, fail } from '../errors.ts';

export type ProjectRow = ProjectsTable;
export type RoleType = ProjectMembersTable['role_type'];

export interface CustomConfig {
  logo?: string;
  name?: string;
  config?: { weixinLogin?: boolean; weixinAppid?: string; weixinAppType?: string; wxworkLoginUrl?: string };
  view?: { pc?: Record<string, unknown>; mobile?: Record<string, unknown> };
  code?: string;
  reg?: { enable?: boolean; role?: string | null };
}

export function parseJson<T>(text: string, fallback: T): T {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as T) : fallback;
  } catch {
    return fallback;
  }
}

/** Limited: the flag is set, or the time is past `_expired`. */
export function isLimited(p: ProjectRow, now = Date.now()): boolean {
  return p.limited === 1 || (p.expired_at !== null && now > p.expired_at);
}

/** The project as the API shows it. */
export function publicProject(p: ProjectRow, role: RoleType | null = null) {
  return {
    _id: p.id,
    _name: p.name,
    _auth: p.auth,
    _owner: p.owner_id,
    _home: p.home,
    _expired: p.expired_at,
    _status: p.tier,
    _limited: isLimited(p),
    role,
  };
}

export function projectOptions(p: ProjectRow): { accuracy: number } {
  const o = parseJson<{ accuracy?: unknown }>(p.options, {});
  const accuracy = Number.isInteger(o.accuracy) ? (o.accuracy as number) : ACCURACY_DEFAULT;
  return { accuracy };
}

export async function createProject(
  db: Kysely<DB>,
  ownerId: string,
  name: string,
  extra: Partial<Pick<ProjectRow, 'tier' | 'expired_at' | 'auth'>> = {},
): Promise<ProjectRow> {
  const now = Date.now();
  const row: ProjectRow = {
    id: newId(now),
    name,
    owner_id: ownerId,
    auth: extra.auth ?? 'admin',
    home: '/',
    tier: extra.tier ?? 0,
    expired_at: extra.expired_at ?? null,
    limited: 0,
    custom: '{}',
    options: '{}',
    created_at: now,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('projects').values(row).execute();
    await trx
      .insertInto('project_members')
      .values({
        project_id: row.id,
        user_id: ownerId,
        role_type: 'owner',
        role_id: null,
        status: 'active',
        created_at: now,
      })
      .execute();
  });
  return row;
}

export async function findProject(db: Kysely<DB>, id: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Projects the user belongs to, each with the user's role type; owned first, then by creation. */
export async function listProjects(db: Kysely<DB>, userId: string) {
  const rows = await db
    .selectFrom('project_members as m')
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .selectAll('p')
    .select(['m.role_type', 'm.status as member_status'])
    .where('m.user_id', '=', userId)
    .orderBy('p.created_at', 'asc')
    .execute();
  return rows
    .filter((r) => r.member_status === 'active')
    .map((r) => publicProject(r, r.role_type))
    .sort((a, b) => Number(b.role === 'owner') - Number(a.role === 'owner'));
}

export async function membership(db: Kysely<DB>, projectId: string, userId: string) {
  return db
    .selectFrom('project_members')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function memberCount(db: Kysely<DB>, projectId: string): Promise<number> {
  const r = await db
    .selectFrom('project_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Fails with the limit code when the tier's member quota is used up. */
export async function assertMemberQuota(db: Kysely<DB>, project: ProjectRow): Promise<void> {
  const quota = QUOTAS[(project.tier as Tier) in QUOTAS ? (project.tier as Tier) : 0].members;
  if ((await memberCount(db, project.id)) >= quota) fail(E.LIMIT, 'member quota of this version reached');
}

/**
 * Registration into a project: the project's reg config {enable, role} opens registration into
 * its chosen role (or none); a common role whose `reg` option is on may be joined this way too,
 * named by `roleId`. Within the member quota. With `dryRun` nothing is written (checks before the
 * code is consumed).
 */
export async function joinByRegistration(
  db: Kysely<DB>,
  projectId: string,
  userId: string | null,
  roleId: string | null,
  dryRun: boolean,
): Promise<void> {
  const project = await findProject(db, projectId);
  if (!project) fail(E.PROJECT_NOT_FOUND);
  const reg = parseJson<CustomConfig>(project.custom, {}).reg;
  let role: string | null;
  if (roleId && !(reg?.enable && roleId === (reg.role ?? null))) {
    const row = await db
      .selectFrom('roles')
      .select(['id', 'type', 'options'])
      .where('id', '=', roleId)
      .where('project_id', '=', project.id)
      .executeTakeFirst();
    const open = row?.type === 'common' && parseJson<{ reg?: unknown }>(row.options, {}).reg === true;
    if (!open) fail(E.FORBIDDEN, 'role is not open for registration');
    role = roleId;
  } else {
    if (!reg?.enable) fail(E.FORBIDDEN, 'registration into this project is closed');
    role = reg.role ?? null;
  }
  await assertMemberQuota(db, project);
  if (dryRun || !userId) return;
  await db
    .insertInto('project_members')
    .values({
      project_id: projectId,
      user_id: userId,
      role_type: 'common',
      role_id: role,
      status: 'active',
      created_at: Date.now(),
    })
    .execute();
}

/** Store the project's custom configuration (branding, registration, setup code). */
export async function setCustom(db: Kysely<DB>, projectId: string, custom: CustomConfig): Promise<void> {
  await db
    .updateTable('projects')
    .set({ custom: JSON.stringify(custom), updated_at: Date.now() })
    .where('id', '=', projectId)
    .execute();
}
