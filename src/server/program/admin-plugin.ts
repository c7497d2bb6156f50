import type { FastifyInstance, FastifyRequest } from 'fastify';
import { projectAccess } from '../access/decide.ts';
import { requireUser } from '../account/auth.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, id, int, obj, ok, str } from '../http/schemas.ts';
import { runAndLog } from './run.ts';
import {
  apiFlow,
  createFlow,
  draftDoc,
  type FlowPatch,
  findFlow,
  listRuns,
  listVersions,
  releaseFlow,
  removeFlow,
  restoreVersion,
  updateFlow,
} from './service.ts';
import { checkTriggerTest } from './trigger-test.ts';

const tags = ['programs'];
const one = ok(anyObj());
const list = ok({ type: 'array', items: anyObj() });
const params = obj({ project: id() });
const flowParams = obj({ project: id(), id: { type: 'string', maxLength: 64 } });
const doc = {
  '_process?': { type: 'array', maxItems: 1000 },
  '_option?': anyObj(),
};
const moduleRef = { anyOf: [id(), { type: 'null' }, { const: '' }] };
// Checked field by field by checkTriggerTest (its own coded errors), then by the write itself.
const testBody = obj({
  'data?': anyObj(),
  'record?': { type: 'string', maxLength: 64 },
  'trigger?': {},
});

/**
 * The builder's program calls (registered under /api/admin/flow/:project): create, save (validated),
 * rename, sort, move between modules, remove, release, versions and restore, test run, run log.
 */
async function programAdminPlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const admin = async (request: FastifyRequest) =>
    (await projectAccess(request, (request.params as { project: string }).project, { admin: true })).project;
  const flowOf = async (request: FastifyRequest) => {
    const p = await admin(request);
    const f = await findFlow(db, p.id, (request.params as { id: string }).id);
    // Datasets have their own calls (/api/admin/dataset): a program save would drop their document.
    if (f.type !== 'program') fail(E.PROGRAM_NOT_FOUND);
    return f;
  };

  app.post(
    '/create',
    {
      schema: {
        tags,
        params,
        body: obj({
          name: str(128),
          'type?': { type: 'string', enum: ['program'] },
          'module?': moduleRef,
          'sort?': int(),
          ...doc,
        }),
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const p = await admin(request);
      return {
        error: 0,
        data: apiFlow(await createFlow(db, p.id, request.body as FlowPatch & { name: string })),
      };
    },
  );
  app.get(
    '/:id',
    { schema: { tags, params: flowParams, response: { 200: one } }, preHandler: requireUser },
    async (request) => ({ error: 0, data: apiFlow(await flowOf(request)) }),
  );
  app.post(
    '/:id/update',
    {
      schema: {
        tags,
        params: flowParams,
        body: obj({ 'name?': str(128), 'sort?': int(), 'module?': moduleRef, ...doc }),
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const f = await flowOf(request);
      return { error: 0, data: apiFlow(await updateFlow(db, f, request.body as FlowPatch)) };
    },
  );
  app.get(
    '/:id/remove',
    { schema: { tags, params: flowParams, response: { 200: one } }, preHandler: requireUser },
    async (request) => {
      await removeFlow(db, await flowOf(request));
      return { error: 0, data: { removed: true } };
    },
  );
  app.post(
    '/:id/release',
    {
      schema: {
        tags,
        params: flowParams,
        body: { type: 'object', maxProperties: 0 },
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const f = await releaseFlow(db, await flowOf(request), request.user?.id ?? null);
      return { error: 0, data: apiFlow(f) };
    },
  );
  app.get(
    '/:id/versions',
    { schema: { tags, params: flowParams, response: { 200: list } }, preHandler: requireUser },
    async (request) => ({ error: 0, data: await listVersions(db, await flowOf(request)) }),
  );
  app.post(
    '/:id/restore',
    {
      schema: {
        tags,
        params: flowParams,
        body: obj({ version: int({ minimum: 1 }) }),
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const f = await flowOf(request);
      return {
        error: 0,
        data: apiFlow(await restoreVersion(db, f, (request.body as { version: number }).version)),
      };
    },
  );
  // The saved draft run in a transaction that is rolled back: the trace and the rows it would change.
  app.post(
    '/:id/test',
    { schema: { tags, params: flowParams, body: testBody, response: { 200: one } }, preHandler: requireUser },
    async (request) => {
      const f = await flowOf(request);
      const b = request.body as { data?: unknown; record?: string; trigger?: unknown };
      const doc = draftDoc(f);
      const triggerTest = checkTriggerTest(doc, b);
      const result = await runAndLog(app, {
        flow: f,
        doc,
        version: null,
        user: request.user,
        trigger: 'test',
        data: b.data,
        recordId: b.record || undefined,
        triggerTest,
      });
      return { error: 0, data: result };
    },
  );
  app.get(
    '/:id/runs',
    {
      schema: {
        tags,
        params: flowParams,
        querystring: obj({ 'limit?': { type: 'string', pattern: '^[0-9]{1,3}$' } }),
        response: { 200: list },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const f = await flowOf(request);
      const limit = Math.min(200, Math.max(1, Number((request.query as { limit?: string }).limit ?? 50)));
      return { error: 0, data: await listRuns(db, f, limit) };
    },
  );
}

export default area('lc-program-admin', programAdminPlugin);
