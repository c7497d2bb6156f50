/** Seeding for access tests: rows written straight to the database (argon2 hash computed once). */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { createRole } from '../../src/server/access/roles.ts';
import { createSession, hashPassword } from '../../src/server/account/service.ts';
import type { ProjectMembersTable } from '../../src/server/db/schema.ts';
import { createProject } from '../../src/server/project/service.ts';
import { newId } from '../../src/shared/id.ts';
import { managedState } from './state.ts';

export const PWD = 'abc12345';
let pwdHash: Promise<string> | undefined;
let seq = 0;

/** A unique account name (letters first, 6–16 characters). */
export function freshAccount(prefix = 'u'): string {
  seq += 1;
  return `${prefix}${Date.now().toString(36).slice(-5)}${seq}`.slice(0, 16).padEnd(6, 'x');
}

export async function seedUser(
  app: FastifyInstance,
  opts: { parentId?: string | null; account?: string } = {},
) {
  pwdHash ??= hashPassword(PWD);
  const now = Date.now();
  const id = newId(now);
  const account = opts.account ?? freshAccount();
  await app.database.db
    .insertInto('users')
    .values({
      id,
      account,
      phone: null,
      nickname: account,
      pwd: await pwdHash,
      status: 'active',
      avatar: null,
      parent_id: opts.parentId ?? null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { id, account, token: await createSession(app.database.db, id) };
}

export async function seedMember(
  app: FastifyInstance,
  projectId: string,
  userId: string,
  roleType: ProjectMembersTable['role_type'],
  roleId: string | null,
  status: 'active' | 'disabled' = 'active',
) {
  await app.database.db
    .insertInto('project_members')
    .values({
      project_id: projectId,
      user_id: userId,
      role_type: roleType,
      role_id: roleId,
      status,
      created_at: Date.now(),
    })
    .execute();
}

export async function seedProject(
  app: FastifyInstance,
  ownerId: string,
  extra: { tier?: number; expired_at?: number | null; auth?: 'admin' | 'public' } = {},
) {
  return createProject(app.database.db, ownerId, `p${++seq}`, extra);
}

export async function seedRole(
  app: FastifyInstance,
  projectId: string,
  type: 'admin' | 'common' | 'public',
  grants: Record<string, string[]> = {},
) {
  const role = await createRole(app.database.db, projectId, { name: `r${++seq}`, type });
  if (Object.keys(grants).length) {
    await app.database.db
      .updateTable('roles')
      .set({ grants: JSON.stringify(grants) })
      .where('id', '=', role.id)
      .execute();
  }
  return role.id;
}

export async function seedRoute(
  app: FastifyInstance,
  projectId: string,
  type: 'dir' | 'table' | 'page' | 'display' = 'table',
  parentId: string | null = null,
  sort = 0,
) {
  const now = Date.now();
  const id = newId(now);
  await app.database.db
    .insertInto('routes')
    .values({
      id,
      project_id: projectId,
      parent_id: parentId,
      sort,
      type,
      name: `m${++seq}`,
      value: null,
      programs: '[]',
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export async function seedPage(app: FastifyInstance, projectId: string) {
  const now = Date.now();
  const id = newId(now);
  await app.database.db
    .insertInto('pages')
    .values({ id, project_id: projectId, name: `pg${++seq}`, created_at: now, updated_at: now })
    .execute();
  return id;
}

export async function seedInvite(app: FastifyInstance, projectId: string, createdBy: string) {
  const now = Date.now();
  const id = newId(now);
  await app.database.db
    .insertInto('invitations')
    .values({
      id,
      project_id: projectId,
      code: `C${(++seq).toString(36).toUpperCase().padStart(7, '0')}`,
      link: `link-${id}`,
      role_id: null,
      status: 'open',
      expires_at: now + 86_400_000,
      created_by: createdBy,
      created_at: now,
    })
    .execute();
  return id;
}

/** A pending application of a fresh user to a fresh `apply` role of the project. */
export async function seedApplication(app: FastifyInstance, projectId: string) {
  const u = await seedUser(app);
  const role = await createRole(app.database.db, projectId, {
    name: `ap${++seq}`,
    type: 'common',
    options: { apply: true },
  });
  const now = Date.now();
  const id = newId(now);
  await app.database.db
    .insertInto('role_applications')
    .values({
      id,
      project_id: projectId,
      user_id: u.id,
      role_id: role.id,
      status: 'pending',
      created_at: now,
      decided_at: null,
      decided_by: null,
    })
    .execute();
  return id;
}

/** Everything access calls may change, as one comparable string. */
export async function digest(app: FastifyInstance): Promise<string> {
  const db = app.database.db;
  const [projects, roles, routes, members, invites, users, sessions, applications] = await Promise.all([
    db.selectFrom('projects').select(['id', 'auth', 'custom', 'updated_at']).orderBy('id').execute(),
    db.selectFrom('roles').selectAll().orderBy('id').execute(),
    db.selectFrom('routes').selectAll().orderBy('id').execute(),
    db.selectFrom('project_members').selectAll().orderBy('project_id').orderBy('user_id').execute(),
    db.selectFrom('invitations').selectAll().orderBy('id').execute(),
    db.selectFrom('users').select(['id', 'status', 'pwd', 'nickname']).orderBy('id').execute(),
    db.selectFrom('sessions').select(['token_hash']).orderBy('token_hash').execute(),
    db.selectFrom('role_applications').selectAll().orderBy('id').execute(),
  ]);
  // Builder tables, pages and the rows of every builder table: denied data and page calls must
  // leave these alone too.
  const [entities, fields, pages, versions] = await Promise.all([
    db.selectFrom('data_entities').select(['id', 'name', 'code']).orderBy('id').execute(),
    db.selectFrom('data_fields').select(['id', 'name', 'code']).orderBy('id').execute(),
    db.selectFrom('pages').select(['id', 'name', 'draft', 'published_version']).orderBy('id').execute(),
    db
      .selectFrom('page_versions')
      .select(['page_id', 'version'])
      .orderBy('page_id')
      .orderBy('version')
      .execute(),
  ]);
  const schedules = await db.selectFrom('schedules').selectAll().orderBy('id').execute();
  const rows: Record<string, number> = {};
  for (const e of entities) {
    const r = await (db as unknown as Kysely<Record<string, { _id: string }>>)
      .selectFrom(`e_${e.id}`)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    rows[e.id] = Number(r.n);
  }
  return JSON.stringify({
    projects,
    roles,
    routes,
    members,
    invites,
    users,
    sessions,
    applications,
    entities,
    fields,
    pages,
    versions,
    schedules,
    rows,
    // The managed indexes and rollups of builder tables, and the objects behind them.
    managed: await managedState(app),
  });
}

/** A released program without input steps, written directly (for schedule calls). */
export async function seedFlow(app: FastifyInstance, projectId: string) {
  const now = Date.now();
  const id = newId(now);
  const doc = JSON.stringify({ _process: [], _option: {} });
  await app.database.db
    .insertInto('flows')
    .values({
      id,
      project_id: projectId,
      module_id: null,
      type: 'program',
      name: `f${++seq}`,
      sort: 0,
      draft: doc,
      released: doc,
      released_version: 1,
      last_version: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** An enabled scheduled task of a fresh program, written directly. */
export async function seedSchedule(app: FastifyInstance, projectId: string) {
  const now = Date.now();
  const id = newId(now);
  await app.database.db
    .insertInto('schedules')
    .values({
      id,
      project_id: projectId,
      name: `s${++seq}`,
      cron: '0 0 9 * * ? *',
      flow_id: await seedFlow(app, projectId),
      option: '{}',
      enabled: 1,
      created_by: null,
      created_at: now,
      updated_at: now,
      armed_at: now,
    })
    .execute();
  return id;
}
