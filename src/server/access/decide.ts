/**
 * The one access decision. Every route that touches a project asks `can` (or `authorize`, which
 * throws the denial): who the caller is in that project (an actor), then whether that actor may act
 * on the resource. Services below it only ever see ids already scoped to the authorised project.
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { ErrorDef } from '../../shared/errors.ts';
import type { Session, UserRow } from '../account/service.ts';
import type { DB, ProjectMembersTable } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import { findProject, isLimited, type ProjectRow, type RoleType } from '../project/service.ts';
import { emptyGrants, type Grants, parseGrants, type RoleRow } from './grants.ts';

export type ActorKind = 'owner' | 'admin' | 'common' | 'public';

/** The caller as seen inside one project. */
export interface Actor {
  kind: ActorKind;
  /** null for anonymous callers of a public project. */
  userId: string | null;
  role: RoleRow | null;
  grants: Grants;
}

export type Resource =
  /** The end-user app: init, menu list. */
  | { kind: 'app' }
  /** The builder/management area (workbench, roles, members, menus, settings); dev mode by default. */
  | { kind: 'admin'; dev?: boolean }
  /** One menu entry, one custom page. */
  | { kind: 'route'; id: string }
  | { kind: 'page'; id: string }
  /** One program (flow): run it, or learn what it asks before running. */
  | { kind: 'program'; id: string }
  /** One dataset (flow): show its released rows. */
  | { kind: 'dataset'; id: string }
  /** Records of one builder table (end-user data calls). */
  | { kind: 'entity'; id: string }
  /** A member being managed (kick, ban, role change …), by its role type in the project. */
  | { kind: 'member'; target: ProjectMembersTable['role_type'] }
  /** The hidden fields of one builder table (end users see a meta without them). */
  | { kind: 'hidden-fields'; entity: string }
  /**
   * A shared key/value item of one type; `createdBy` is its creator's id (null when unknown) when the
   * item exists, absent when a write would create it.
   */
  | { kind: 'share'; type: 'project' | 'public' | 'private'; createdBy?: string | null }
  /**
   * Storing an uploaded file: builders, or a signed-in member whose role may write a table (the
   * given one when the upload is for a field of it).
   */
  | { kind: 'upload'; entity?: string }
  /** Auto-numbering counters: taking the next number (write), or resetting them (`reset`). */
  | { kind: 'counter'; reset?: boolean };

export type Action = 'read' | 'write';

export type Decision = { allow: true; actor: Actor } | { allow: false; error: ErrorDef; reason: string };

export interface Principal {
  user: UserRow | null;
  session: Session | null;
}

function deny(error: ErrorDef, reason: string): Decision & { allow: false } {
  return { allow: false, error, reason };
}

const isManager = (a: Actor) => a.kind === 'owner' || a.kind === 'admin';
const signedIn = (a: Actor) => a.userId !== null;

/** Who the principal is in the project, or why they are nobody there. */
export async function resolveActor(
  db: Kysely<DB>,
  who: Principal,
  project: ProjectRow,
): Promise<{ actor: Actor } | (Decision & { allow: false })> {
  const { user, session } = who;
  if (session?.kind === 'child' && session.projectId !== project.id) {
    return deny(E.FORBIDDEN, 'a child token acts only in the project it was issued for');
  }
  const member = user
    ? await db
        .selectFrom('project_members')
        .selectAll()
        .where('project_id', '=', project.id)
        .where('user_id', '=', user.id)
        .executeTakeFirst()
    : undefined;
  if (member && member.status !== 'active') return deny(E.BANNED, 'banned in this project');
  if (member) {
    const role = member.role_id
      ? ((await db
          .selectFrom('roles')
          .selectAll()
          .where('id', '=', member.role_id)
          .where('project_id', '=', project.id)
          .executeTakeFirst()) ?? null)
      : null;
    const kind: ActorKind =
      member.role_type === 'owner' ? 'owner' : member.role_type === 'admin' ? 'admin' : 'common';
    return {
      actor: { kind, userId: member.user_id, role, grants: role ? parseGrants(role.grants) : emptyGrants() },
    };
  }
  // Not a member: only a public project lets them in, with the public role's grants.
  if (project.auth === 'public') {
    const role = await db
      .selectFrom('roles')
      .selectAll()
      .where('project_id', '=', project.id)
      .where('type', '=', 'public')
      .executeTakeFirst();
    if (role)
      return { actor: { kind: 'public', userId: user?.id ?? null, role, grants: parseGrants(role.grants) } };
  }
  return user ? deny(E.NOT_MEMBER, 'not a member') : deny(E.AUTH_REQUIRED, 'sign-in required');
}

/** The pure part: may this actor do this? */
export function decide(actor: Actor, project: ProjectRow, resource: Resource, action: Action): Decision {
  const ok: Decision = { allow: true, actor };
  switch (resource.kind) {
    case 'app':
      return ok;
    case 'admin':
      if (!isManager(actor)) return deny(E.FORBIDDEN, `${actor.kind} cannot use the management area`);
      if (resource.dev !== false && isLimited(project)) return deny(E.LIMIT, 'this project has expired');
      return ok;
    case 'member': {
      // Managing members is management-area work, plus: nobody manages the owner.
      const area = decide(actor, project, { kind: 'admin', dev: false }, action);
      if (!area.allow) return area;
      if (action === 'write' && resource.target === 'owner') {
        return deny(E.OWNER_PROTECTED, 'the owner cannot be managed');
      }
      return ok;
    }
    case 'entity': {
      // A table is granted by the role's entity or simple-entity grants.
      if (isManager(actor)) return ok;
      const granted = actor.grants.entity.includes(resource.id) || actor.grants.simple.includes(resource.id);
      if (!granted) return deny(E.FORBIDDEN, 'data table not granted to this role');
      // Records keep who wrote them: anonymous visitors of a public project only read.
      return action === 'write' && !signedIn(actor) ? deny(E.AUTH_REQUIRED, 'sign-in required') : ok;
    }
    case 'upload': {
      if (!signedIn(actor)) return deny(E.AUTH_REQUIRED, 'sign-in required');
      if (isManager(actor)) return ok;
      if (resource.entity) return decide(actor, project, { kind: 'entity', id: resource.entity }, 'write');
      const writes = actor.grants.entity.length + actor.grants.simple.length > 0;
      return writes ? ok : deny(E.UPLOAD_FORBIDDEN, 'no data table granted to this role');
    }
    case 'hidden-fields':
      return isManager(actor) ? ok : deny(E.FORBIDDEN, 'hidden fields are seen by builders only');
    case 'share': {
      // Everyone in the project reads (private items are the caller's own by construction).
      if (action === 'read') return ok;
      if (!signedIn(actor)) return deny(E.AUTH_REQUIRED, 'sign-in required');
      if (resource.type === 'project' && !isManager(actor))
        return deny(E.FORBIDDEN, 'project items are changed by builders');
      if (
        resource.type === 'public' &&
        resource.createdBy !== undefined &&
        resource.createdBy !== actor.userId &&
        !isManager(actor)
      )
        return deny(E.FORBIDDEN, 'only its creator or a builder may change a public item');
      return ok;
    }
    case 'counter':
      if (resource.reset) {
        if (isManager(actor)) return ok;
        return signedIn(actor)
          ? deny(E.FORBIDDEN, 'counters are reset by builders')
          : deny(E.AUTH_REQUIRED, 'sign-in required');
      }
      return signedIn(actor) ? ok : deny(E.AUTH_REQUIRED, 'sign-in required');
    case 'program': {
      // Programs act with their own rights on tables: only the program grant is asked for.
      if (isManager(actor)) return ok;
      return actor.grants.program.includes(resource.id)
        ? ok
        : deny(E.FORBIDDEN, 'program not granted to this role');
    }
    case 'dataset':
      // A dataset reads with its own query: only the dataset grant is asked for (anonymous visitors
      // of a public project read it when the public role is granted it).
      if (isManager(actor)) return ok;
      return actor.grants.dataset.includes(resource.id)
        ? ok
        : deny(E.FORBIDDEN, 'dataset not granted to this role');
    case 'route':
    case 'page': {
      // Changing menus and pages is management-area work; this answers who may see one.
      if (isManager(actor)) return ok;
      const granted = actor.grants[resource.kind].includes(resource.id);
      return granted ? ok : deny(E.FORBIDDEN, `${resource.kind} not granted to this role`);
    }
  }
}

/** Allow or deny, with a reason: (user, project, resource, action). */
export async function can(
  db: Kysely<DB>,
  who: Principal,
  project: ProjectRow,
  resource: Resource,
  action: Action,
): Promise<Decision> {
  const r = await resolveActor(db, who, project);
  if (!('actor' in r)) return r;
  return decide(r.actor, project, resource, action);
}

/** For routes: find the project, ask `can`, throw the coded denial; answer the project and actor. */
export async function authorize(
  request: FastifyRequest,
  projectId: string,
  resource: Resource,
  action: Action = 'read',
): Promise<{ project: ProjectRow; actor: Actor }> {
  const db = request.server.database.db;
  const project = await findProject(db, projectId);
  if (!project) fail(E.PROJECT_NOT_FOUND);
  const d = await can(db, { user: request.user, session: request.session }, project, resource, action);
  if (!d.allow) fail(d.error, d.reason);
  return { project, actor: d.actor };
}

export interface ProjectAccess {
  project: ProjectRow;
  role: RoleType;
}

/**
 * The caller's access to a project: with `admin` the management area (owner or admin role; a
 * limited project answers the limit code in dev mode), else the end-user app (members, or anyone
 * with the public role of a public project).
 */
export async function projectAccess(
  request: FastifyRequest,
  projectId: string,
  opts: { admin: boolean; dev?: boolean },
): Promise<ProjectAccess> {
  const resource: Resource = opts.admin ? { kind: 'admin', dev: opts.dev !== false } : { kind: 'app' };
  const { project, actor } = await authorize(request, projectId, resource);
  return { project, role: actor.kind };
}
