/** Members of a project and invitations: lookups scoped to the project. */
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { QUOTAS, type Tier } from '../../shared/constants.ts';
import { displayName } from '../../shared/validation.ts';
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
