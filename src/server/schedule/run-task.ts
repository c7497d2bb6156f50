/** One claimed fire: the task's released program through the program run model, logged as trigger `schedule`. */
import type { FastifyInstance } from 'fastify';
import { projectFeatures } from '../admin/feature-guard.ts';
import { AppError } from '../errors.ts';
import { runAndLog } from '../program/run.ts';
import { inputFields, releasedDoc } from '../program/service.ts';

export interface FireOutcome {
  /** `skipped`: the project's `schedule` feature is off (/system/features), nothing ran. */
  state: 'success' | 'fail' | 'skipped';
  result: string;
  runId: string | null;
}

const RESULT_MAX = 2000;
/** The log's result of a fire skipped because the project's `schedule` feature is off. */
export const SKIPPED = 'skipped: scheduled tasks are switched off for this system (/system/features)';
const cut = (s: string) => (s.length > RESULT_MAX ? `${s.slice(0, RESULT_MAX)}…` : s);

/**
 * Whether a project's `schedule` feature is on, read at most once a second per project and process:
 * the tasks of a project firing together read the switch once, and a switch reaches every process's
 * next fires within a second.
 */
const SWITCH_TTL_MS = 1000;
const switches = new WeakMap<FastifyInstance, Map<string, { at: number; on: Promise<boolean> }>>();
function schedulesOn(app: FastifyInstance, projectId: string): Promise<boolean> {
  let cache = switches.get(app);
  if (!cache) {
    cache = new Map();
    switches.set(app, cache);
  }
  const now = Date.now();
  const hit = cache.get(projectId);
  if (hit && now - hit.at < SWITCH_TTL_MS) return hit.on;
  if (cache.size > 10_000) for (const [k, v] of cache) if (now - v.at >= SWITCH_TTL_MS) cache.delete(k);
  const on = projectFeatures(app, projectId).then((f) => f.schedule === true);
  // A failed read is not kept: the next fire asks again.
  on.catch(() => cache.delete(projectId));
  cache.set(projectId, { at: now, on });
  return on;
}

export async function runTask(app: FastifyInstance, taskId: string): Promise<FireOutcome> {
  const { db } = app.database;
  const task = await db.selectFrom('schedules').selectAll().where('id', '=', taskId).executeTakeFirst();
  if (!task) return { state: 'fail', result: 'the task was removed', runId: null };
  // A system whose schedules are switched off keeps its tasks but runs none of them: each fire is
  // logged as skipped, so the owner sees why nothing ran.
  if (!(await schedulesOn(app, task.project_id))) return { state: 'skipped', result: SKIPPED, runId: null };
  const flow = await db
    .selectFrom('flows')
    .selectAll()
    .where('id', '=', task.flow_id)
    .where('project_id', '=', task.project_id)
    .executeTakeFirst();
  if (!flow) return { state: 'fail', result: 'the program was removed', runId: null };
  const doc = releasedDoc(flow);
  if (!doc) return { state: 'fail', result: 'the program is not released', runId: null };
  // Checked again at run time: a release since the task was saved may have added an input step.
  if (inputFields(doc).length || doc._process.some((s) => s._type === 'input'))
    return { state: 'fail', result: 'the program asks for input', runId: null };
  try {
    const r = await runAndLog(app, {
      flow,
      doc,
      version: flow.released_version,
      user: null,
      trigger: 'schedule',
      data: {},
    });
    let text: string;
    try {
      text = JSON.stringify(r.output ?? null) ?? 'null';
    } catch {
      text = '[unserialisable]';
    }
    return { state: 'success', result: cut(text), runId: r.run };
  } catch (err) {
    if (err instanceof AppError) {
      const run = (err.data as { run?: string } | undefined)?.run ?? null;
      return { state: 'fail', result: cut(`${err.def.code} ${err.message}`), runId: run };
    }
    app.log.error({ err, task: taskId }, 'scheduled run failed');
    return { state: 'fail', result: 'internal error', runId: null };
  }
}
