/** Builder calls, under /api/admin/page: draft, publish, versions. SQL is in ./service.ts. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authorize } from '../access/decide.ts';
import { requireUser } from '../account/auth.ts';
import { anyObj, bool, id, int, obj, ok, projectParams, str } from '../http/schemas.ts';
import { DOCUMENT_BODY_LIMIT, load } from './document.ts';
import { draftSchema, pageName, pageParams, summarySchema, versionSchema } from './schemas.ts';
import {
  adminSummary,
  createPage,
  duplicatePage,
  findPage,
  findVersion,
  hasCoEditingHistory,
  listPages,
  listVersions,
  type PageInput,
  type PageRow,
  publishPage,
  removePage,
  restoreVersion,
  updatePage,
} from './service.ts';

export default async function pageBuilderRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const tags = ['page'];
  const params = (request: FastifyRequest) => request.params as { project: string; id: string };
  const admin = (request: FastifyRequest) => authorize(request, params(request).project, { kind: 'admin' });
  /** The page named in the path, in the project the caller manages. */
  const page = async (request: FastifyRequest) => {
    const { project } = await admin(request);
    return findPage(db, project.id, params(request).id);
  };
  const callerId = (request: FastifyRequest) => request.user?.id ?? null;
  const draftOf = (row: PageRow) => ({ ...adminSummary(row), document: load(row.draft, row).document });

  app.get(
    '/:project/',
    {
      schema: { tags, params: projectParams, response: { 200: ok({ type: 'array', items: summarySchema }) } },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      return { error: 0, data: (await listPages(db, project.id)).map(adminSummary) };
    },
  );

  app.get(
    '/:project/:id',
    { schema: { tags, params: pageParams, response: { 200: ok(draftSchema) } }, preHandler: requireUser },
    async (request) => ({ error: 0, data: draftOf(await page(request)) }),
  );

  app.post(
    '/:project/create',
    {
      bodyLimit: DOCUMENT_BODY_LIMIT,
      schema: {
        tags,
        params: projectParams,
        body: obj({ name: pageName, 'document?': anyObj(), 'display?': bool() }),
        response: { 200: ok(draftSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      const input = request.body as PageInput & { name: string };
      return { error: 0, data: draftOf(await createPage(db, project.id, input, callerId(request))) };
    },
  );

  app.post(
    '/:project/:id/update',
    {
      bodyLimit: DOCUMENT_BODY_LIMIT,
      schema: {
        tags,
        params: pageParams,
        body: obj({ 'name?': pageName, 'document?': anyObj(), 'display?': bool() }),
        response: { 200: ok(draftSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const row = await page(request);
      const next = await updatePage(db, row, request.body as PageInput, callerId(request));
      return { error: 0, data: draftOf(next) };
    },
  );

  app.post(
    '/:project/:id/duplicate',
    {
      schema: {
        tags,
        params: pageParams,
        body: obj({ 'name?': pageName }),
        response: { 200: ok(draftSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const src = await page(request);
      const { name } = (request.body ?? {}) as { name?: string };
      return { error: 0, data: draftOf(await duplicatePage(db, src, name, callerId(request))) };
    },
  );

  app.get(
    '/:project/:id/remove',
    {
      schema: { tags, params: pageParams, response: { 200: ok(obj({ _id: str() })) } },
      preHandler: requireUser,
    },
    async (request) => {
      const row = await page(request);
      // Close the live document first, so no queued edit is written after its rows are gone.
      await app.realtime.yjs.discard(row.id);
      await removePage(db, row.project_id, row.id);
      // A connection that opened the page in between is closed too (new ones now find no page).
      await app.realtime.yjs.discard(row.id, false);
      return { error: 0, data: { _id: row.id } };
    },
  );

  app.post(
    '/:project/:id/publish',
    {
      schema: {
        tags,
        params: pageParams,
        body: obj({ 'note?': str(255) }),
        response: { 200: ok(summarySchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const row = await page(request);
      const note = ((request.body ?? {}) as { note?: string }).note?.trim() ?? '';
      return { error: 0, data: adminSummary(await publishPage(db, row, note, callerId(request))) };
    },
  );

  app.get(
    '/:project/:id/versions',
    {
      schema: { tags, params: pageParams, response: { 200: ok({ type: 'array', items: versionSchema }) } },
      preHandler: requireUser,
    },
    async (request) => {
      const row = await page(request);
      const list = await listVersions(db, row.id);
      return {
        error: 0,
        data: list.map((v) => ({
          version: v.version,
          note: v.note,
          createdAt: v.created_at,
          createdBy: v.created_by,
          createdByName: v.nickname ?? null,
          published: v.version === row.published_version,
        })),
      };
    },
  );

  app.get(
    '/:project/:id/version/:version',
    {
      schema: {
        tags,
        params: obj({ project: id(), id: id(), version: str(9, { pattern: '^[1-9][0-9]{0,8}$' }) }),
        response: {
          200: ok(obj({ version: int(), note: { type: 'string' }, createdAt: int(), document: anyObj() })),
        },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const row = await page(request);
      const v = await findVersion(db, row.id, Number((request.params as { version: string }).version));
      const data = { version: v.version, note: v.note, createdAt: v.created_at };
      return { error: 0, data: { ...data, document: load(v.document, row).document } };
    },
  );

  app.post(
    '/:project/:id/restore',
    {
      schema: {
        tags,
        params: pageParams,
        body: obj({ version: int({ minimum: 1, maximum: 2147483647 }) }),
        response: { 200: ok(draftSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const row = await page(request);
      const { version } = request.body as { version: number };
      const restored = await restoreVersion(db, row, version, callerId(request));
      // Editors with the page open see the restored version arrive as one change; a page never
      // opened for co-editing starts from the restored draft when it is.
      if (app.realtime.yjs.rooms.has(row.id) || (await hasCoEditingHistory(db, row.id)))
        await app.realtime.yjs.replace(row.id, restored.document);
      return { error: 0, data: draftOf(restored.page) };
    },
  );
}
