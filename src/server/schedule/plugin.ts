/**
 * The schedule calls (registered under /api/admin/schedule/:project): set, update, the task or job
 * list, remove, toggle, the run log. Builders only (owner and admin roles: decide.ts, resource admin).
 * Every change tells the engine, which tells the other processes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authorize } from '../access/decide.ts';
import { requireUser } from '../account/auth.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, id, int, obj, ok, str } from '../http/schemas.ts';
import type { ProjectRow } from '../project/service.ts';
import {
  apiTask,
  createTask,
  findTask,
  LOG_PAGE_SIZE,
  listJobs,
  listTasks,
  quotaOf,
  removeTask,
  type TaskInput,
  taskLog,
  toggleTask,
  updateTask,
} from './service.ts';

const tags = ['schedules'];
const one = ok(anyObj());
const params = obj({ project: id() });
const taskParams = obj({ project: id(), id: id() });
const fields = {
  flow: { type: 'string', maxLength: 64 },
  cron: str(200),
  name: str(128),
  option: { type: 'object', additionalProperties: true, maxProperties: 32 },
};
const optional = Object.fromEntries(Object.entries(fields).map(([k, v]) => [`${k}?`, v]));

async function schedulePlugin(app: FastifyInstance): Promise<void> {
  const { db, dialect } = app.database;
  const builder = async (request: FastifyRequest): Promise<ProjectRow> =>
    (await authorize(request, (request.params as { project: string }).project, { kind: 'admin' }, 'write'))
      .project;
  const taskOf = async (request: FastifyRequest) => {
    const project = await builder(request);
    return { project, task: await findTask(db, project.id, (request.params as { id: string }).id) };
  };
  const changed = () => app.scheduler.changed();

  app.post(
    '/set',
    {
      schema: {
        tags,
        params,
        body: obj(fields, { required: ['flow', 'cron', 'name'] }),
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const project = await builder(request);
      const row = await createTask(db, dialect, project, request.body as TaskInput, request.user?.id ?? null);
      changed();
      return { error: 0, data: apiTask(row) };
    },
  );
  app.post(
    '/:id/update',
    {
      schema: { tags, params: taskParams, body: obj(optional, { minProperties: 1 }), response: { 200: one } },
      preHandler: requireUser,
    },
    async (request) => {
      const { task } = await taskOf(request);
      const row = await updateTask(db, task, request.body as Partial<TaskInput>);
      changed();
      return { error: 0, data: apiTask(row) };
    },
  );
  // The spec's GET …/{model} (schedule | job). Its segment is named `id` like the task routes beside it:
  // one parameter position has one name in the router (else the route tree and the docs disagree).
  app.get(
    '/:id',
    {
      schema: {
        tags,
        params: obj({
          project: id(),
          id: { type: 'string', maxLength: 32, description: 'the list: schedule (tasks) or job (running)' },
        }),
        querystring: obj({ 'name?': str(128) }),
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const model = (request.params as { id: string }).id;
      if (model !== 'schedule' && model !== 'job') fail(E.SCHEDULE_MODEL);
      const project = await builder(request);
      const name = (request.query as { name?: string }).name;
      const list =
        model === 'job'
          ? await listJobs(db, project.id, name)
          : (await listTasks(db, project.id, { name })).map((r) => apiTask(r));
      const used = (await listTasks(db, project.id, { enabledOnly: true })).length;
      const quota = quotaOf(project);
      return { error: 0, data: { list, used, quota: Number.isFinite(quota) ? quota : null } };
    },
  );
  app.get(
    '/:id/remove',
    { schema: { tags, params: taskParams, response: { 200: one } }, preHandler: requireUser },
    async (request) => {
      const { task } = await taskOf(request);
      await removeTask(db, task);
      changed();
      return { error: 0, data: { removed: true } };
    },
  );
  app.get(
    '/:id/toggle',
    { schema: { tags, params: taskParams, response: { 200: one } }, preHandler: requireUser },
    async (request) => {
      const { project, task } = await taskOf(request);
      const row = await toggleTask(db, dialect, project, task);
      changed();
      return { error: 0, data: apiTask(row) };
    },
  );
  app.post(
    '/:id/log',
    {
      schema: {
        tags,
        params: taskParams,
        body: obj({
          'page?': obj({
            'index?': int({ minimum: 1, maximum: 100_000 }),
            'size?': int({ minimum: 1, maximum: 100 }),
          }),
        }),
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { task } = await taskOf(request);
      const page = (request.body as { page?: { index?: number; size?: number } } | undefined)?.page ?? {};
      return {
        error: 0,
        data: await taskLog(db, task, { index: page.index ?? 1, size: page.size ?? LOG_PAGE_SIZE }),
      };
    },
  );
}

export default area('lc-schedule', schedulePlugin);
