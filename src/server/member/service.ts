/** Members of a project and invitations: lookups scoped to the project. */
import { randomInt } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { QUOTAS, type Tier } from '../../shared/constants.ts';
import { newId } from '../../shared/id.ts';
import { displayName } from '../../shared/validation.ts';
import type { RoleRow } from '../access/grants.ts';
import { createUser, type UserRow } from '../account/service.ts';
import { newToken } from '../account/tokens.ts';
import type { DB, InvitationsTable, ProjectMembersTable } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import type { ProjectRow } from '../project/service.ts';

export type MemberRow = ProjectMembersTable;

/** A member with their account, for management calls. */
/** Members of one project joined with their accounts: the base of both lookups below. */
function memberQuery(db: Kysely<DB>, projectId: string) {
  return db
    .selectFrom('project_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select([
      'm.project_id',
      'm.user_id',
      'm.role_type',
      'm.role_id',
      'm.status',
      'm.created_at',
      'u.account',
      'u.phone',
      'u.nickname',
      'u.parent_id',
      'u.status as user_status',
    ])
    .where('m.project_id', '=', projectId);
}

export async function findMember(db: Kysely<DB>, projectId: string, userId: string) {
  const row = await memberQuery(db, projectId).where('m.user_id', '=', userId).executeTakeFirst();
  if (!row) fail(E.MEMBER_NOT_FOUND);
  return row;
}

export type MemberView = Awaited<ReturnType<typeof findMember>>;

/**
 * Sub-users of a project are the accounts its owner owns (created through member management by the
 * owner or an admin): only they can have passwords reset, be acted as, or be disabled outright.
 */
export function isSubUser(m: Pick<MemberView, 'parent_id'>, project: ProjectRow): boolean {
  return m.parent_id !== null && m.parent_id === project.owner_id;
}

export function publicMember(m: MemberView, project: ProjectRow) {
  return {
    _id: m.user_id,
    account: m.account,
    nickname: m.nickname,
    name: displayName(m),
    phone: m.phone,
    status: m.status,
    role: m.role_id,
    roleType: m.role_type,
    owner: m.parent_id,
    sub: isSubUser(m, project),
    createdAt: m.created_at,
  };
}

export async function listMembers(db: Kysely<DB>, projectId: string, only?: string[]) {
  let q = memberQuery(db, projectId);
  if (only) {
    if (only.length === 0) return [];
    q = q.where('m.user_id', 'in', only);
  }
  return q.orderBy('m.created_at').orderBy('m.user_id').execute();
}

/** Most members one page of the list holds. */
export const MEMBER_PAGE_MAX = 200;

/** `%`, `_` and the escape itself written literally inside a LIKE pattern (ESCAPE '\\'). */
function likeContains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page of a project's members whose nickname, account or phone contains `text` (case-insensitive),
 * oldest first, and how many match: both decided in SQL (an index on (project, joined, user) walks
 * the order), so a project of thousands of members pages without reading them all.
 */
export async function pageMembers(
  db: Kysely<DB>,
  projectId: string,
  opts: { text?: string; page: number; pageSize: number },
) {
  const text = opts.text?.trim() ?? '';
  const filtered = () => {
    let q = memberQuery(db, projectId);
    if (text) {
      const pattern = likeContains(text);
      q = q.where((eb) =>
        eb.or(
          (['u.nickname', 'u.account', 'u.phone'] as const).map(
            (c) => sql<boolean>`lower(coalesce(${sql.ref(c)}, '')) LIKE ${pattern} ESCAPE '\\'`,
          ),
        ),
      );
    }
    return q;
  };
  const [rows, count] = await Promise.all([
    filtered()
      .orderBy('m.created_at')
      .orderBy('m.user_id')
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize)
      .execute(),
    filtered()
      .clearSelect()
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

/** How many members a project has. */
export async function countMembers(db: Kysely<DB>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('project_members')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function memberQuota(project: ProjectRow): number | null {
  const q = QUOTAS[(project.tier as Tier) in QUOTAS ? (project.tier as Tier) : 0].members;
  return Number.isFinite(q) ? q : null;
}

const CODE_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** An 8-character invitation code without look-alike characters. */
export function newInviteCode(): string {
  let s = '';
  for (let i = 0; i < 8; i++) s += CODE_CHARS[randomInt(0, CODE_CHARS.length)];
  return s;
}

export function publicInvitation(i: InvitationsTable, now = Date.now()) {
  return {
    _id: i.id,
    code: i.code,
    link: i.link,
    role: i.role_id,
    status: i.status,
    valid: i.status === 'open' && i.expires_at > now,
    expiresAt: i.expires_at,
    createdAt: i.created_at,
  };
}

/** End the child tokens a member opened in this project (they lost the right to open them). */
export async function revokeChildTokensOpenedBy(
  db: Kysely<DB>,
  userId: string,
  projectId: string,
): Promise<void> {
  const own = db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId);
  await db
    .deleteFrom('sessions')
    .where('parent_hash', 'in', own)
    .where('project_id', '=', projectId)
    .execute();
}

/** Whether the user is in the project already (active or banned). */
export async function isMember(db: Kysely<DB>, projectId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('project_members')
    .select('user_id')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return !!row;
}

/** Make the user a member with this role (admin roles give the admin role type); none: common. */
export async function addMember(
  db: Kysely<DB>,
  projectId: string,
  userId: string,
  role: Pick<RoleRow, 'id' | 'type'> | null,
): Promise<void> {
  await db
    .insertInto('project_members')
    .values({
      project_id: projectId,
      user_id: userId,
      role_type: role?.type === 'admin' ? 'admin' : 'common',
      role_id: role?.id ?? null,
      status: 'active',
      created_at: Date.now(),
    })
    .execute();
}

/** A sub-user (owned by the project owner, whoever of the managers created them) and their membership. */
export function createSubUser(
  db: Kysely<DB>,
  project: ProjectRow,
  role: RoleRow,
  input: { account: string; phone: string | null; nickname: string; pwd: string },
): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    const u = await createUser(trx, { ...input, parentId: project.owner_id });
    await addMember(trx, project.id, u.id, role);
    return u;
  });
}

/** Enable or disable a membership; a sub-user's account follows (they cannot sign in while banned). */
export async function setMemberStatus(
  db: Kysely<DB>,
  project: ProjectRow,
  member: MemberView,
  status: 'active' | 'disabled',
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('project_members')
      .set({ status })
      .where('project_id', '=', project.id)
      .where('user_id', '=', member.user_id)
      .execute();
    if (isSubUser(member, project)) {
      await trx
        .updateTable('users')
        .set({ status, updated_at: Date.now() })
        .where('id', '=', member.user_id)
        .execute();
    }
  });
}

/** End a membership with the child tokens opened by or acting as the member in this project. */
export async function removeMember(db: Kysely<DB>, projectId: string, userId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('project_members')
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .execute();
    await revokeChildTokensOpenedBy(trx, userId, projectId);
    // Child tokens acting as them in this project end with the membership.
    await trx
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('project_id', '=', projectId)
      .execute();
  });
}

/** Give a member another role; one that is no longer an admin role ends the child tokens they opened. */
export async function changeRole(
  db: Kysely<DB>,
  projectId: string,
  userId: string,
  role: Pick<RoleRow, 'id' | 'type'>,
): Promise<void> {
  await db
    .updateTable('project_members')
    .set({ role_id: role.id, role_type: role.type === 'admin' ? 'admin' : 'common' })
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .execute();
  if (role.type !== 'admin') await revokeChildTokensOpenedBy(db, userId, projectId);
}

export async function renameUser(db: Kysely<DB>, userId: string, nickname: string): Promise<void> {
  await db.updateTable('users').set({ nickname, updated_at: Date.now() }).where('id', '=', userId).execute();
}

/** A new open invitation (a short code and a link token) valid for `days`. */
export async function createInvitation(
  db: Kysely<DB>,
  projectId: string,
  roleId: string | null,
  days: number,
  createdBy: string,
): Promise<InvitationsTable> {
  const now = Date.now();
  const row = {
    id: newId(now),
    project_id: projectId,
    code: newInviteCode(),
    link: newToken(),
    role_id: roleId,
    status: 'open' as const,
    expires_at: now + days * 86_400_000,
    created_by: createdBy,
    created_at: now,
  };
  await db.insertInto('invitations').values(row).execute();
  return row;
}

/** The project's invitations, newest first. */
export function listInvitations(db: Kysely<DB>, projectId: string): Promise<InvitationsTable[]> {
  return db
    .selectFrom('invitations')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .execute();
}

/** Open or close one of the project's invitations; answers it as it is after. */
export async function setInvitationStatus(
  db: Kysely<DB>,
  projectId: string,
  inviteId: string,
  status: 'open' | 'closed',
): Promise<InvitationsTable> {
  const found = await db
    .selectFrom('invitations')
    .selectAll()
    .where('id', '=', inviteId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!found) fail(E.NOT_FOUND, 'invitation');
  await db.updateTable('invitations').set({ status }).where('id', '=', found.id).execute();
  return { ...found, status };
}

/** The invitation with this code (any case) or link, whatever its state. */
export function findInvitation(
  db: Kysely<DB>,
  by: { code: string } | { link: string },
): Promise<InvitationsTable | undefined> {
  const q = db.selectFrom('invitations').selectAll();
  return (
    'code' in by ? q.where('code', '=', by.code.trim().toUpperCase()) : q.where('link', '=', by.link.trim())
  ).executeTakeFirst();
}
