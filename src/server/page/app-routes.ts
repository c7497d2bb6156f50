/**
 * End-user calls, under /api/app: pages at page/{project}/… (the last published version; `?preview=1`
 * answers the draft to builders) and displays at dp/{project}/… — a display is a page whose `display`
 * flag is on, offered on its own (the /display/{id} screen); it follows the page's publishing and
 * grants. SQL is in ./service.ts; who may see what is access/decide.ts's answer.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Actor, authorize, decide } from '../access/decide.ts';
import { optionalUser } from '../access/guard.ts';
import { E, fail } from '../errors.ts';
import { id, obj, ok, projectParams } from '../http/schemas.ts';
import type { ProjectRow } from '../project/service.ts';
import { type LoadedPage, load, viewOf } from './document.ts';
import { appListSchema, appPageSchema, pageParams, viewSchema } from './schemas.ts';
import {
  findMeta,
  findPage,
  findPublishedMetas,
  listPublished,
  type PublishedMeta,
  publishedLoader,
} from './service.ts';

interface Published {
  row: PublishedMeta;
  loaded: LoadedPage;
}

const pageAnswer = (r: Published) => ({
  _id: r.row.id,
  name: r.row.name,
  display: r.row.display === 1,
  version: r.row.published_version,
  publishedAt: r.row.published_at,
  preview: false,
  document: r.loaded.document,
  issues: r.loaded.issues,
});

const viewAnswer = (r: Published) => ({
  vid: r.row.id,
  _id: r.row.id,
  name: r.row.name,
  version: r.row.published_version,
  ...viewOf(r.loaded.document),
});

export default async function pageAppRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const tags = ['page'];
  const params = (request: FastifyRequest) => request.params as { project: string; id: string };
  const loadPublished = publishedLoader(db);

  const mayRead = (actor: Actor, project: ProjectRow, pageId: string) =>
    decide(actor, project, { kind: 'page', id: pageId }, 'read').allow;

  /** The published pages (optionally displays only) this actor may see. */
  async function visible(project: ProjectRow, actor: Actor, displaysOnly: boolean) {
    const rows = await listPublished(db, project.id, displaysOnly);
    return rows
      .filter((r) => mayRead(actor, project, r.id))
      .map((r) => ({
        _id: r.id,
        name: r.name,
        display: r.display === 1,
        version: r.published_version!,
        publishedAt: r.published_at!,
      }));
  }

  /** One published page the caller may see (404 for another project's id, 1600 when unpublished). */
  async function published(
    request: FastifyRequest,
    pageId: string,
    displaysOnly: boolean,
  ): Promise<Published> {
    const { project, actor } = await authorize(request, params(request).project, { kind: 'app' });
    const row = await findMeta(db, project.id, pageId);
    if (!row) fail(displaysOnly ? E.DISPLAY_NOT_FOUND : E.PAGE_NOT_FOUND);
    if (displaysOnly && row.display !== 1) fail(E.DISPLAY_NOT_FOUND, 'this page is not offered as a display');
    const d = decide(actor, project, { kind: 'page', id: row.id }, 'read');
    if (!d.allow) fail(d.error, d.reason);
    if (row.published_version === null) fail(E.PAGE_NOT_PUBLISHED);
    const meta = { ...row, published_version: row.published_version };
    const loaded = (await loadPublished([meta])).get(row.id);
    if (!loaded) fail(E.PAGE_NOT_FOUND);
    return { row: meta, loaded };
  }

  for (const [base, displaysOnly] of [
    ['/page', false],
    ['/dp', true],
  ] as const) {
    app.get(
      `${base}/:project/`,
      {
        schema: {
          tags,
          params: projectParams,
          response: { 200: ok({ type: 'array', items: appListSchema }) },
        },
        preHandler: optionalUser,
      },
      async (request) => {
        const { project, actor } = await authorize(request, params(request).project, { kind: 'app' });
        return { error: 0, data: await visible(project, actor, displaysOnly) };
      },
    );

    app.get(
      `${base}/:project/view/:vid`,
      {
        schema: { tags, params: obj({ project: id(), vid: id() }), response: { 200: ok(viewSchema) } },
        preHandler: optionalUser,
      },
      async (request) => {
        const r = await published(request, (request.params as { vid: string }).vid, displaysOnly);
        return { error: 0, data: viewAnswer(r) };
      },
    );
  }

  app.get(
    '/page/:project/:id',
    {
      schema: {
        tags,
        params: pageParams,
        querystring: obj({ 'preview?': { type: 'string', enum: ['0', '1', 'true', 'false'] } }),
        response: { 200: ok(appPageSchema) },
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const { preview } = request.query as { preview?: string };
      if (preview === '1' || preview === 'true') {
        // Reviewers (/dev/preview) see the draft: builders only, and also on an expired project.
        const { project } = await authorize(request, params(request).project, { kind: 'admin', dev: false });
        const row = await findPage(db, project.id, params(request).id);
        const loaded = load(row.draft, row);
        return {
          error: 0,
          data: {
            _id: row.id,
            name: row.name,
            display: row.display === 1,
            version: row.published_version,
            publishedAt: row.published_at,
            preview: true,
            document: loaded.document,
            issues: loaded.issues,
          },
        };
      }
      return { error: 0, data: pageAnswer(await published(request, params(request).id, false)) };
    },
  );

  app.get(
    '/dp/:project/:id',
    {
      schema: { tags, params: pageParams, response: { 200: ok(appPageSchema) } },
      preHandler: optionalUser,
    },
    async (request) => ({ error: 0, data: pageAnswer(await published(request, params(request).id, true)) }),
  );

  app.post(
    '/page/:project/view/prepare',
    {
      schema: {
        tags,
        params: projectParams,
        body: obj({ view: { type: 'array', items: id(), maxItems: 100 } }),
        response: { 200: ok({ type: 'object', additionalProperties: { ...appPageSchema } }) },
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, actor } = await authorize(request, params(request).project, { kind: 'app' });
      const ids = [...new Set((request.body as { view: string[] }).view)].filter((pid) =>
        mayRead(actor, project, pid),
      );
      const out: Record<string, ReturnType<typeof pageAnswer>> = {};
      const rows = await findPublishedMetas(db, project.id, ids);
      const loaded = await loadPublished(rows);
      for (const row of rows) {
        const page = loaded.get(row.id);
        if (page) out[row.id] = pageAnswer({ row, loaded: page });
      }
      return { error: 0, data: out };
    },
  );
}
