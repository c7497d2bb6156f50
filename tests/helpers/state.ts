import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
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

/**
 * The server's managed objects of builder tables: the rows of the adaptive indexes and rollups (what
 * builders see and pin, not their use counts, which reads move) and the database objects behind
 * them (`ax_…` indexes; `rx_…` tables, their key indexes and triggers). Compare before and after to
 * prove a refused call built, pinned or dropped nothing.
 */
export async function managedState(app: FastifyInstance): Promise<string> {
  const { db, dialect } = app.database;
  const [indexes, rollups] = await Promise.all([
    db
      .selectFrom('data_indexes')
      .select(['id', 'entity_id', 'name', 'shape', 'kind', 'pinned'])
      .orderBy('id')
      .execute(),
    db
      .selectFrom('data_rollups')
      .select(['id', 'entity_id', 'name', 'shape', 'pinned'])
      .orderBy('id')
      .execute(),
  ]);
  const objects =
    dialect === 'postgres'
      ? await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes
          WHERE schemaname = current_schema() AND substr(indexname, 1, 3) = 'ax_' ORDER BY indexname`.execute(
          db,
        )
      : await sql<{ name: string }>`SELECT type || ' ' || name AS name FROM sqlite_master
          WHERE substr(name, 1, 3) IN ('ax_', 'rx_') ORDER BY name`.execute(db);
  return JSON.stringify({
    indexes: indexes.map((r) => ({ ...r, pinned: Number(r.pinned) })),
    rollups: rollups.map((r) => ({ ...r, pinned: Number(r.pinned) })),
    objects: objects.rows.map((r) => r.name),
  });
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
