import type { FastifyInstance } from 'fastify';
import { newId } from '../../src/shared/id.ts';

const TABLES = [
  'users',
  'sessions',
  'projects',
  'project_members',
  'verify_codes',
  'captchas',
  'pages',
  'short_links',
  'schedules',
  'schedule_fires',
  'orders',
  'third_states',
  'third_identities',
] as const;

/** Every row of every platform table, in a stable order: compare before and after to prove nothing changed. */
export async function snapshot(app: FastifyInstance): Promise<string> {
  const { db } = app.database;
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    const rows = (await db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
    out[table] = rows.map((r) => JSON.stringify(r, Object.keys(r).sort())).sort();
  }
  return JSON.stringify(out);
}

export async function countRows(app: FastifyInstance, table: (typeof TABLES)[number]): Promise<number> {
  const r = await app.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Pretend the last code to this phone was sent over a minute ago, so another may be asked for. */
export async function skipCooldown(app: FastifyInstance, phone: string): Promise<void> {
  await app.database.db
    .updateTable('verify_codes')
    .set((eb) => ({ created_at: eb('created_at', '-', 61_000) }))
    .where('phone', '=', phone)
    .execute();
}

/** A user row written directly (no argon2): for filling member quotas and the like. */
export async function insertUser(app: FastifyInstance, account: string): Promise<string> {
  const id = newId();
  const now = Date.now();
  await app.database.db
    .insertInto('users')
    .values({
      id,
      account,
      phone: null,
      nickname: account,
      pwd: 'not-a-hash',
      status: 'active',
      avatar: null,
      parent_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export async function addMember(
  app: FastifyInstance,
  projectId: string,
  userId: string,
  roleType: 'owner' | 'admin' | 'common' | 'public' = 'common',
): Promise<void> {
  await app.database.db
    .insertInto('project_members')
    .values({
      project_id: projectId,
      user_id: userId,
      role_type: roleType,
      role_id: null,
      status: 'active',
      created_at: Date.now(),
    })
    .execute();
}

export async function insertPage(app: FastifyInstance, projectId: string, name: string): Promise<string> {
  const id = newId();
  const now = Date.now();
  await app.database.db
    .insertInto('pages')
    .values({ id, project_id: projectId, name, created_at: now, updated_at: now })
    .execute();
  return id;
}

/** Text that must never reach a caller: stack frames, source paths, SQL, driver names. */
export const LEAK =
  /\bat [\w.<>]+ \(|\.ts:\d|node_modules|\bselect\b.*\bfrom\b|\binsert into\b|sqlite|postgres|syntax error at|constraint/i;
