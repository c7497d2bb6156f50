/** A user's standing in one project, as the user object of login and userInfo carries it. */
import type { Kysely } from 'kysely';
import type { UserRole } from '../account/service.ts';
import type { DB } from '../db/schema.ts';
import { parseHome, parseOptions } from './grants.ts';

/**
 * `auth`: owner, admin, common, public (not a member of a public project), or null (no standing);
 * `role`: the member's role (null for the owner and for members without one).
 */
export async function standingIn(
  db: Kysely<DB>,
  userId: string,
  projectId: string,
): Promise<{ role: UserRole | null; auth: string | null }> {
  const m = await db
    .selectFrom('project_members as m')
    .leftJoin('roles as r', (j) =>
      j.onRef('r.id', '=', 'm.role_id').onRef('r.project_id', '=', 'm.project_id'),
    )
    .select(['m.role_type', 'm.status', 'r.id', 'r.name', 'r.type', 'r.home', 'r.options'])
    .where('m.project_id', '=', projectId)
    .where('m.user_id', '=', userId)
    .executeTakeFirst();
  if (m) {
    if (m.status !== 'active') return { role: null, auth: null };
    const role =
      m.id && m.name && m.type
        ? { _id: m.id, name: m.name, type: m.type, home: parseHome(m.home), options: parseOptions(m.options) }
        : null;
    return { role, auth: m.role_type };
  }
  const pub = await db
    .selectFrom('projects as p')
    .innerJoin('roles as r', 'r.project_id', 'p.id')
    .select(['r.id', 'r.name', 'r.type', 'r.home', 'r.options'])
    .where('p.id', '=', projectId)
    .where('p.auth', '=', 'public')
    .where('r.type', '=', 'public')
    .executeTakeFirst();
  if (!pub) return { role: null, auth: null };
  return {
    role: {
      _id: pub.id,
      name: pub.name,
      type: pub.type,
      home: parseHome(pub.home),
      options: parseOptions(pub.options),
    },
    auth: 'public',
  };
}
