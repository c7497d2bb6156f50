/**
 * The engine's SQL: enabled tasks, the change fingerprint it polls, and fire rows. A fire row is the
 * claim: it is inserted only while the task is still enabled with the same cron, and UNIQUE(task,
 * fire time) lets one process win; the others' inserts do nothing.
 */
import { type Kysely, sql } from 'kysely';
import type { DB, ScheduleFiresTable } from '../db/schema.ts';

export interface ArmedTask {
  id: string;
  cron: string;
  updated_at: number;
  armed_at: number;
}

/**
 * Rows per claim or outcome statement: 1,000 tasks due in the same second are one statement (3–4
 * bound values a row, well within SQLite's 32,766 and PostgreSQL's 65,535).
 */
const CHUNK = 1000;

/** Keep at most this many log rows per task (the log shows 20 a page). */
export const FIRES_KEPT = 500;
/** And none older than this. */
export const FIRES_KEEP_MS = 30 * 24 * 3600_000;

/**
 * Runs `fn` again when PostgreSQL broke a deadlock by aborting it (40P01). Removing a task deletes
 * its fire rows while an engine may be writing outcomes to some of them in its own transaction;
 * the two lock the same rows in different orders, and PostgreSQL aborts one. The retry then finds
 * the other done (the rows gone, or written).
 */
export async function retryDeadlock<T>(fn: () => Promise<T>, tries = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i >= tries || (err as { code?: unknown }).code !== '40P01') throw err;
      await new Promise((r) => setTimeout(r, 10 * i + Math.random() * 20));
    }
  }
}

export async function enabledTasks(db: Kysely<DB>): Promise<ArmedTask[]> {
  const rows = await db
    .selectFrom('schedules')
    .select(['id', 'cron', 'updated_at', 'armed_at'])
    .where('enabled', '=', 1)
    .execute();
  return rows.map((r) => ({ ...r, updated_at: Number(r.updated_at), armed_at: Number(r.armed_at) }));
}

/**
 * Changes whenever an enabled task is created, changed, toggled or removed: every change moves a
 * row's `updated_at` forward, and the sum is taken as exact text (10,000 ms times overflow a double).
 */
export async function fingerprint(db: Kysely<DB>): Promise<string> {
  const r = await sql<{
    n: number | string;
    s: string | null;
  }>`select count(*) as n, cast(sum(updated_at) as text) as s from schedules where enabled = 1`.execute(db);
  const row = r.rows[0];
  return `${row?.n ?? 0}:${row?.s ?? ''}`;
}

/** The latest fire time of each task that has one (where the engine's cursor starts on boot). */
export async function lastFires(db: Kysely<DB>, ids: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('schedule_fires')
      .select(['task_id', (eb) => eb.fn.max('fire_time').as('t')])
      .where('task_id', 'in', ids.slice(i, i + 500))
      .groupBy('task_id')
      .execute();
    for (const r of rows) out.set(r.task_id, Number(r.t));
  }
  return out;
}

/**
 * Inserts the fire row if the task is still enabled with this cron and nobody has it yet. Answers
 * whether this call inserted it (won the claim).
 */
export async function claimFire(
  db: Kysely<DB>,
  fire: {
    task: string;
    cron: string;
    time: number;
    node: string;
    state: ScheduleFiresTable['state'];
    result?: string | null;
  },
): Promise<boolean> {
  const now = Date.now();
  const r = await db
    .insertInto('schedule_fires')
    .columns(['task_id', 'fire_time', 'state', 'node', 'result', 'started_at', 'ended_at'])
    .expression((eb) =>
      eb
        .selectFrom('schedules')
        .select([
          'id',
          sql<number>`cast(${fire.time} as bigint)`.as('fire_time'),
          sql<string>`cast(${fire.state} as varchar(16))`.as('state'),
          sql<string>`cast(${fire.node} as varchar(80))`.as('node'),
          sql<string | null>`cast(${fire.result ?? null} as text)`.as('result'),
          sql<number>`cast(${now} as bigint)`.as('started_at'),
          sql<number | null>`cast(${fire.state === 'running' ? null : now} as bigint)`.as('ended_at'),
        ])
        .where('id', '=', fire.task)
        .where('enabled', '=', 1)
        .where('cron', '=', fire.cron),
    )
    .onConflict((oc) => oc.columns(['task_id', 'fire_time']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * Claims many fires in one statement (the fires due at one wake): each row is inserted only if its
 * task is still enabled with that cron and nobody has the (task, time) yet. Answers the won keys
 * `task@time`.
 */
export async function claimFires(
  db: Kysely<DB>,
  node: string,
  fires: { task: string; cron: string; time: number }[],
): Promise<Set<string>> {
  const won = new Set<string>();
  const now = Date.now();
  for (let i = 0; i < fires.length; i += CHUNK) {
    const chunk = fires.slice(i, i + CHUNK);
    const values = sql.join(chunk.map((f) => sql`(${f.task}, ${f.cron}, cast(${f.time} as bigint))`));
    const r = await sql<{ task_id: string; fire_time: number | string }>`
      with v(id, cron, t) as (values ${values})
      insert into schedule_fires (task_id, fire_time, state, node, result, started_at, ended_at)
      select s.id, v.t, 'running', ${node}, null, cast(${now} as bigint), null
      from schedules s inner join v on s.id = v.id and s.cron = v.cron
      where s.enabled = 1
      on conflict (task_id, fire_time) do nothing
      returning task_id, fire_time`.execute(db);
    for (const row of r.rows) won.add(`${row.task_id}@${Number(row.fire_time)}`);
  }
  return won;
}

/**
 * Writes the outcomes of finished fires: fires with the same outcome (state, result, run) in one
 * statement, all of them in one transaction.
 */
export async function finishFires(
  db: Kysely<DB>,
  done: {
    task: string;
    time: number;
    state: 'success' | 'fail' | 'skipped';
    result: string;
    runId: string | null;
    at: number;
  }[],
): Promise<void> {
  if (!done.length) return;
  const groups = new Map<string, typeof done>();
  for (const d of done) {
    const k = JSON.stringify([d.state, d.result, d.runId]);
    const g = groups.get(k);
    if (g) g.push(d);
    else groups.set(k, [d]);
  }
  const at = Math.max(...done.map((d) => d.at));
  await retryDeadlock(() =>
    db.transaction().execute(async (trx) => {
      for (const g of groups.values())
        for (let i = 0; i < g.length; i += CHUNK) {
          const chunk = g.slice(i, i + CHUNK);
          const { state, result, runId } = chunk[0]!;
          const keys = sql.join(chunk.map((d) => sql`(${d.task}, cast(${d.time} as bigint))`));
          await sql`update schedule_fires set state = ${state}, result = ${result}, run_id = ${runId},
          ended_at = cast(${at} as bigint) where (task_id, fire_time) in (values ${keys})`.execute(trx);
        }
    }),
  );
}

export async function finishFire(
  db: Kysely<DB>,
  task: string,
  time: number,
  out: { state: 'success' | 'fail' | 'skipped'; result: string; runId: string | null },
): Promise<void> {
  await db
    .updateTable('schedule_fires')
    .set({ state: out.state, result: out.result, run_id: out.runId, ended_at: Date.now() })
    .where('task_id', '=', task)
    .where('fire_time', '=', time)
    .execute();
}

/** Drops a task's log rows past the retention (count and age). */
export async function trimFires(db: Kysely<DB>, task: string): Promise<void> {
  await db
    .deleteFrom('schedule_fires')
    .where('task_id', '=', task)
    .where('started_at', '<', Date.now() - FIRES_KEEP_MS)
    .execute();
  const nth = await db
    .selectFrom('schedule_fires')
    .select('fire_time')
    .where('task_id', '=', task)
    .orderBy('fire_time', 'desc')
    .offset(FIRES_KEPT)
    .limit(1)
    .executeTakeFirst();
  if (nth)
    await db
      .deleteFrom('schedule_fires')
      .where('task_id', '=', task)
      .where('fire_time', '<=', nth.fire_time)
      .execute();
}
