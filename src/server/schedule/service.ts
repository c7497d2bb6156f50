/** Scheduled tasks and their fire log: the SQL of the schedule area. */
import { type Kysely, sql } from 'kysely';
import type { ScheduleTask } from '../../shared/api/schedules.ts';
import { QUOTAS, type Tier } from '../../shared/constants.ts';
import { newId } from '../../shared/id.ts';
import { checkCron, nextFires } from '../../shared/schedule/index.ts';
import type { Dialect } from '../db/index.ts';
import type { DB, ScheduleFiresTable, SchedulesTable } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import { inputFields, releasedDoc } from '../program/service.ts';
import type { ProjectRow } from '../project/service.ts';
import { retryDeadlock } from './fires.ts';

export type TaskRow = SchedulesTable;
const ID = /^[0-9a-f]{24}$/;
/** The spec's log page size. */
export const LOG_PAGE_SIZE = 20;
const OPTION_MAX = 4000;

export interface TaskInput {
  flow: string;
  cron: string;
  name: string;
  option?: Record<string, unknown> | undefined;
}

/** A task as the calls answer it (the shared payload type). */
export type ApiTask = ScheduleTask;

function parseOption(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function apiTask(row: TaskRow, now = Date.now()): ApiTask {
  return {
    _id: row.id,
    _name: row.name,
    _cron: row.cron,
    _flow: row.flow_id,
    _option: parseOption(row.option),
    enabled: Number(row.enabled) === 1,
    creator: row.created_by,
    next: Number(row.enabled) === 1 ? (nextFires(row.cron, 1, now)[0] ?? null) : null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function quotaOf(project: ProjectRow): number {
  return QUOTAS[(project.tier as Tier) in QUOTAS ? (project.tier as Tier) : 0].schedules;
}

/** The task of this project (another project's id is not found). */
export async function findTask(db: Kysely<DB>, projectId: string, id: string): Promise<TaskRow> {
  if (!ID.test(id)) fail(E.SCHEDULE_NOT_FOUND);
  const row = await db
    .selectFrom('schedules')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!row) fail(E.SCHEDULE_NOT_FOUND);
  return row;
}

/** The cron normalised (a 6-field cron gets a `*` year), or the coded reason it cannot be used. */
export function cleanCron(cron: string): string {
  const c = checkCron(cron);
  if (!c.ok) fail(c.why === 'parse' ? E.SCHEDULE_CRON_INVALID : E.SCHEDULE_CRON_NEVER, c.msg);
  return c.cron;
}

/** A released program of this project without an input step. */
async function checkFlow(db: Kysely<DB>, projectId: string, flowId: string): Promise<string> {
  if (!ID.test(flowId)) fail(E.SCHEDULE_FLOW_NOT_FOUND);
  const flow = await db
    .selectFrom('flows')
    .selectAll()
    .where('id', '=', flowId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (flow?.type !== 'program') fail(E.SCHEDULE_FLOW_NOT_FOUND);
  const doc = releasedDoc(flow);
  if (!doc) fail(E.SCHEDULE_FLOW_NOT_RELEASED);
  if (inputFields(doc).length || doc._process.some((s) => s._type === 'input')) fail(E.SCHEDULE_FLOW_INPUT);
  return flow.id;
}

function cleanName(name: string): string {
  const n = name.trim();
  if (!n) fail(E.SCHEDULE_INVALID, 'name must not be empty');
  return n;
}

function cleanOption(option: Record<string, unknown> | undefined): string {
  const text = JSON.stringify(option ?? {});
  if (text.length > OPTION_MAX) fail(E.SCHEDULE_INVALID, `option is larger than ${OPTION_MAX} characters`);
  return text;
}

/**
 * Runs `body` while holding the project's row (PostgreSQL) or the write lock (SQLite, whose writers
 * queue anyway): two concurrent enables cannot both see room under the quota.
 */
async function withProjectLock<T>(
  db: Kysely<DB>,
  dialect: Dialect,
  projectId: string,
  body: (trx: Kysely<DB>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres')
      await trx.selectFrom('projects').select('id').where('id', '=', projectId).forUpdate().execute();
    return body(trx);
  });
}

async function assertRoom(trx: Kysely<DB>, project: ProjectRow): Promise<void> {
  const r = await trx
    .selectFrom('schedules')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', project.id)
    .where('enabled', '=', 1)
    .executeTakeFirstOrThrow();
  if (Number(r.n) >= quotaOf(project)) fail(E.SCHEDULE_QUOTA);
}

/** A change time strictly after the row's last one: engines notice every change by its sum. */
const bump = (prev: number) => Math.max(Date.now(), Number(prev) + 1);

/** Creates an enabled task (within the tier's quota of enabled tasks). */
export async function createTask(
  db: Kysely<DB>,
  dialect: Dialect,
  project: ProjectRow,
  input: TaskInput,
  userId: string | null,
): Promise<TaskRow> {
  const name = cleanName(input.name);
  const cron = cleanCron(input.cron);
  const option = cleanOption(input.option);
  const flowId = await checkFlow(db, project.id, input.flow);
  return withProjectLock(db, dialect, project.id, async (trx) => {
    await assertRoom(trx, project);
    const now = Date.now();
    const row: TaskRow = {
      id: newId(now),
      project_id: project.id,
      name,
      cron,
      flow_id: flowId,
      option,
      enabled: 1,
      created_by: userId,
      created_at: now,
      updated_at: now,
      armed_at: now,
    };
    await trx.insertInto('schedules').values(row).execute();
    return row;
  });
}

export async function updateTask(db: Kysely<DB>, row: TaskRow, input: Partial<TaskInput>): Promise<TaskRow> {
  const set: Partial<TaskRow> = {};
  if (input.name !== undefined) set.name = cleanName(input.name);
  if (input.cron !== undefined) set.cron = cleanCron(input.cron);
  if (input.option !== undefined) set.option = cleanOption(input.option);
  if (input.flow !== undefined) set.flow_id = await checkFlow(db, row.project_id, input.flow);
  const now = Date.now();
  set.updated_at = bump(row.updated_at);
  // A new cron counts from now: the old one's fires are not the new one's missed fires.
  if (set.cron !== undefined && set.cron !== row.cron) set.armed_at = now;
  await db.updateTable('schedules').set(set).where('id', '=', row.id).execute();
  return { ...row, ...set };
}

export async function removeTask(db: Kysely<DB>, row: TaskRow): Promise<void> {
  // Engines may be writing outcomes to this task's fire rows meanwhile (see retryDeadlock).
  await retryDeadlock(() =>
    db.transaction().execute(async (trx) => {
      await trx.deleteFrom('schedule_fires').where('task_id', '=', row.id).execute();
      await trx.deleteFrom('schedules').where('id', '=', row.id).execute();
    }),
  );
}

/** Enables (within the quota) or disables a task. */
export async function toggleTask(
  db: Kysely<DB>,
  dialect: Dialect,
  project: ProjectRow,
  row: TaskRow,
): Promise<TaskRow> {
  const enable = Number(row.enabled) !== 1;
  return withProjectLock(db, dialect, project.id, async (trx) => {
    if (enable) await assertRoom(trx, project);
    const now = Date.now();
    const set: Partial<TaskRow> = { enabled: enable ? 1 : 0, updated_at: bump(row.updated_at) };
    // Fires while it was off are not missed fires.
    if (enable) set.armed_at = now;
    await trx.updateTable('schedules').set(set).where('id', '=', row.id).execute();
    return { ...row, ...set };
  });
}

export async function listTasks(
  db: Kysely<DB>,
  projectId: string,
  opts: { name?: string | undefined; enabledOnly?: boolean } = {},
): Promise<TaskRow[]> {
  let q = db.selectFrom('schedules').selectAll().where('project_id', '=', projectId);
  if (opts.enabledOnly) q = q.where('enabled', '=', 1);
  const name = opts.name?.trim();
  if (name) {
    const pattern = `%${name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where(sql<boolean>`lower(name) like ${pattern} escape '\\'`);
  }
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1000).execute();
}

export interface JobView extends ApiTask {
  /** The latest fire of the task (time, state), if any. */
  last: { time: number; state: ScheduleFiresTable['state'] } | null;
  running: boolean;
}

/** The running jobs: enabled tasks with their next fire and their latest fire, soonest first. */
export async function listJobs(db: Kysely<DB>, projectId: string, name?: string): Promise<JobView[]> {
  const rows = await listTasks(db, projectId, { name, enabledOnly: true });
  if (!rows.length) return [];
  const lasts = await db
    .selectFrom('schedule_fires as f')
    .innerJoin(
      (eb) =>
        eb
          .selectFrom('schedule_fires')
          .select(['task_id', (e) => e.fn.max('fire_time').as('t')])
          .where(
            'task_id',
            'in',
            rows.map((r) => r.id),
          )
          .groupBy('task_id')
          .as('m'),
      (j) => j.onRef('m.task_id', '=', 'f.task_id').onRef('m.t', '=', 'f.fire_time'),
    )
    .select(['f.task_id', 'f.fire_time', 'f.state'])
    .execute();
  const byTask = new Map(lasts.map((l) => [l.task_id, l]));
  const now = Date.now();
  return rows
    .map((r) => {
      const l = byTask.get(r.id);
      return {
        ...apiTask(r, now),
        last: l ? { time: Number(l.fire_time), state: l.state } : null,
        running: l?.state === 'running',
      };
    })
    .sort((a, b) => (a.next ?? Number.MAX_SAFE_INTEGER) - (b.next ?? Number.MAX_SAFE_INTEGER));
}

export interface LogItem {
  time: number;
  state: ScheduleFiresTable['state'];
  result: string | null;
  run: string | null;
  startedAt: number;
  endedAt: number | null;
}

/** One page of a task's log, newest first, and the total. */
export async function taskLog(
  db: Kysely<DB>,
  row: TaskRow,
  page: { index: number; size: number },
): Promise<{ data: LogItem[]; size: number }> {
  const size = Math.min(Math.max(1, page.size), 100);
  const index = Math.max(1, page.index);
  const [rows, total] = await Promise.all([
    db
      .selectFrom('schedule_fires')
      .selectAll()
      .where('task_id', '=', row.id)
      .orderBy('fire_time', 'desc')
      .limit(size)
      .offset((index - 1) * size)
      .execute(),
    db
      .selectFrom('schedule_fires')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('task_id', '=', row.id)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    data: rows.map((r) => ({
      time: Number(r.fire_time),
      state: r.state,
      result: r.result,
      run: r.run_id,
      startedAt: Number(r.started_at),
      endedAt: r.ended_at === null ? null : Number(r.ended_at),
    })),
    size: Number(total.n),
  };
}
