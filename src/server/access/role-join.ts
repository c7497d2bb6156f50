/**
 * Role options acted on (spec: apply — may apply to join; enable — may change to this role; reg —
 * may register and join this role). Only common roles may be opened with `enable` or `reg`: either
 * would let anyone take the role without a manager, and an admin role enters the workbench.
 */
import type { Kysely } from 'kysely';
import { newId } from '../../shared/id.ts';
import type { DB, RoleApplicationsTable } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import { assertMemberQuota, type ProjectRow } from '../project/service.ts';
import { parseOptions, type RoleOptions, type RoleRow } from './grants.ts';
import { findRole } from './roles.ts';

export type ApplicationRow = Omit<RoleApplicationsTable, 'note'> & { note: string };

/** Refuses options that would open an admin (or the public) role to self-service. */
export function checkRoleOptions(type: RoleRow['type'], options: RoleOptions): void {
  if (type !== 'common' && (options.enable || options.reg)) {
    fail(E.INVALID_FIELD, 'options: only common roles can be opened for switching or registration');
  }
}

/** A role of the project whose option `opt` is on (and that self-service may reach). */
export async function openRole(
  db: Kysely<DB>,
  projectId: string,
  roleId: string,
  opt: keyof RoleOptions,
): Promise<RoleRow> {
  const role = await findRole(db, projectId, roleId);
  if (role.type === 'public') fail(E.ROLE_CLOSED, 'the public role is not joined this way');
  if (!parseOptions(role.options)[opt]) fail(E.ROLE_CLOSED, `role is not open (${opt})`);
  if (opt !== 'apply' && role.type !== 'common') fail(E.ROLE_CLOSED, 'only common roles are self-service');
  return role;
}

/** Roles of a project open to the caller: anonymous see `reg` roles, members `enable` and `apply`. */
export async function listOpenRoles(db: Kysely<DB>, projectId: string, who: 'anon' | 'user' | 'member') {
  const roles = await db
    .selectFrom('roles')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('type', '!=', 'public')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return roles
    .map((r) => ({ _id: r.id, name: r.name, type: r.type, options: parseOptions(r.options) }))
    .filter((r) => {
      const o = r.options;
      if (who === 'anon') return o.reg && r.type === 'common';
      if (who === 'user') return o.apply || (o.reg && r.type === 'common');
      return o.apply || (o.enable && r.type === 'common');
    });
}

/** One application per user and project is pending at a time: a new one replaces it. */
export async function apply(
  db: Kysely<DB>,
  projectId: string,
  userId: string,
  role: RoleRow,
  note: string,
): Promise<ApplicationRow> {
  const now = Date.now();
  const row: ApplicationRow = {
    id: newId(now),
    project_id: projectId,
    user_id: userId,
    role_id: role.id,
    status: 'pending',
    note,
    created_at: now,
    decided_at: null,
    decided_by: null,
  };
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('role_applications')
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      .execute();
    await trx.insertInto('role_applications').values(row).execute();
  });
  return row;
}

export async function listApplications(db: Kysely<DB>, projectId: string, status?: ApplicationRow['status']) {
  let q = db
    .selectFrom('role_applications as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .innerJoin('roles as r', 'r.id', 'a.role_id')
    .selectAll('a')
    .select(['u.account', 'u.nickname', 'u.phone', 'r.name as role_name'])
    .where('a.project_id', '=', projectId);
  if (status) q = q.where('a.status', '=', status);
  const rows = await q.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc').limit(500).execute();
  return rows.map((r) => ({
    _id: r.id,
    user: r.user_id,
    account: r.account,
    nickname: r.nickname,
    role: r.role_id,
    roleName: r.role_name,
    status: r.status,
    note: r.note,
    createdAt: Number(r.created_at),
    decidedAt: r.decided_at === null ? null : Number(r.decided_at),
  }));
}

/**
 * Approve or reject a pending application. Approving makes the applicant a member with the role
 * (within the member quota), or gives a member the role; the owner keeps being the owner.
 */
export async function decideApplication(
  db: Kysely<DB>,
  project: ProjectRow,
  appId: string,
  approve: boolean,
  by: string,
): Promise<void> {
  const row = await db
    .selectFrom('role_applications')
    .selectAll()
    .where('id', '=', appId)
    .where('project_id', '=', project.id)
    .executeTakeFirst();
  if (!row) fail(E.APPLICATION_NOT_FOUND);
  if (row.status !== 'pending') fail(E.APPLICATION_DECIDED);
  const role = approve ? await findRole(db, project.id, row.role_id) : null;
  const member = await db
    .selectFrom('project_members')
    .selectAll()
    .where('project_id', '=', project.id)
    .where('user_id', '=', row.user_id)
    .executeTakeFirst();
  if (role && member?.role_type === 'owner') fail(E.OWNER_PROTECTED);
  if (role && !member) await assertMemberQuota(db, project);
  await db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable('role_applications')
      .set({ status: approve ? 'approved' : 'rejected', decided_at: Date.now(), decided_by: by })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) fail(E.APPLICATION_DECIDED);
    if (!role) return;
    const roleType = role.type === 'admin' ? 'admin' : 'common';
    if (member) {
      await trx
        .updateTable('project_members')
        .set({ role_id: role.id, role_type: roleType })
        .where('project_id', '=', project.id)
        .where('user_id', '=', row.user_id)
        .execute();
    } else {
      await trx
        .insertInto('project_members')
        .values({
          project_id: project.id,
          user_id: row.user_id,
          role_type: roleType,
          role_id: role.id,
          status: 'active',
          created_at: Date.now(),
        })
        .execute();
    }
  });
}
