import type { FastifyInstance, FastifyRequest } from 'fastify';
import { projectAccess } from '../access/decide.ts';
import { requireUser } from '../account/auth.ts';
import { userContext } from '../data/records-plugin.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, id, int, obj, ok, str } from '../http/schemas.ts';
import {
  apiDataset,
  checkDocument,
  createDataset,
  type DatasetPatch,
  draftOf,
  findDataset,
  listDatasets,
  listDatasetVersions,
  releaseDataset,
  removeDataset,
  restoreDataset,
  runShow,
  updateDataset,
} from './service.ts';

const tags = ['datasets'];
const one = ok(anyObj());
const list = ok({ type: 'array', items: anyObj() });
const params = obj({ project: id() });
const flowParams = obj({ project: id(), id: { type: 'string', maxLength: 64 } });
const doc = { '_dataset?': anyObj(), '_release?': anyObj() };
const moduleRef = { anyOf: [id(), { type: 'null' }, { const: '' }] };

/**
 * The builder's dataset calls (registered under /api/admin/dataset/:project): list, create, read,
 * save (checked against the tables), remove, release, versions, restore, and preview — the first
 * rows of the draft, or of a document being edited and not yet saved.
 */
async function datasetAdminPlugin(app: FastifyInstance): Promise<void> {
  const { db, dialect } = app.database;
  const admin = async (request: FastifyRequest) =>
    (await projectAccess(request, (request.params as { project: string }).project, { admin: true })).project;
  const rowOf = async (request: FastifyRequest) => {
    const p = await admin(request);
    return findDataset(db, p.id, (request.params as { id: string }).id);
  };

  app.get(
    '/list',
    { schema: { tags, params, response: { 200: list } }, preHandler: requireUser },
    async (request) => {
      const p = await admin(request);
      return { error: 0, data: (await listDatasets(db, p.id)).map(apiDataset) };
    },
  );
  app.post(
    '/create',
    {
      schema: {
        tags,
        params,
        body: obj({ name: str(128), 'module?': moduleRef, 'sort?': int(), ...doc }),
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const p = await admin(request);
      const row = await createDataset(db, p.id, request.body as DatasetPatch & { name: string });
      return { error: 0, data: apiDataset(row) };
    },
  );
  app.get(
    '/:id',
    { schema: { tags, params: flowParams, response: { 200: one } }, preHandler: requireUser },
    async (request) => ({ error: 0, data: apiDataset(await rowOf(request)) }),
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
      const row = await rowOf(request);
      return { error: 0, data: apiDataset(await updateDataset(db, row, request.body as DatasetPatch)) };
    },
  );
  app.get(
    '/:id/remove',
    { schema: { tags, params: flowParams, response: { 200: one } }, preHandler: requireUser },
    async (request) => {
      await removeDataset(db, await rowOf(request));
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
      const row = await releaseDataset(db, await rowOf(request), request.user?.id ?? null);
      return { error: 0, data: apiDataset(row) };
    },
  );
  app.get(
    '/:id/versions',
    { schema: { tags, params: flowParams, response: { 200: list } }, preHandler: requireUser },
    async (request) => ({ error: 0, data: await listDatasetVersions(db, await rowOf(request)) }),
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
      const row = await rowOf(request);
      const v = (request.body as { version: number }).version;
      return { error: 0, data: apiDataset(await restoreDataset(db, row, v)) };
    },
  );
  // The first rows of the draft, or of the document in the body (the editor's live preview).
  app.post(
    '/:id/preview',
    {
      schema: {
        tags,
        params: flowParams,
        body: obj({
          ...doc,
          'params?': { type: 'object', maxProperties: 16 },
          'query?': {},
          'sort?': {},
          'page?': {},
          'count?': {},
        }),
        response: { 200: one },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const row = await rowOf(request);
      const b = request.body as DatasetPatch & Record<string, unknown>;
      const base = draftOf(row);
      const { doc: d, plan } = await checkDocument(db, row.project_id, {
        _dataset: b._dataset ?? base._dataset,
        _release: b._release ?? base._release,
      });
      const answer = await runShow(
        db,
        dialect,
        plan,
        // Every output column, so the builder sees what the display may choose from.
        { ...d, _release: { _display: { _entity: [] } } },
        {
          params: b.params,
          query: b.query,
          sort: b.sort,
          page: b.page ?? { index: 1, size: 20 },
          count: b.count,
        },
        { user: userContext(request), showHidden: true },
      );
      return { error: 0, data: { ...answer, output: plan.output } };
    },
  );
}

export default area('lc-dataset-admin', datasetAdminPlugin);
