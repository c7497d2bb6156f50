/**
 * Pages. Builders: /api/admin/page/{project}/… (draft, publish, versions). End users:
 * /api/app/page/{project}/… (the last published version; `?preview=1` answers the draft to builders)
 * and displays /api/app/dp/{project}/… — a display is a page whose `display` flag is on, offered on
 * its own (the /display/{id} screen); it follows the page's publishing and grants.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { newId } from '../../shared/id.ts';
import { type Actor, authorize, decide } from '../access/decide.ts';
import { optionalUser } from '../access/guard.ts';
import { requireUser } from '../account/auth.ts';
import { E, fail } from '../errors.ts';
import { anyObj, bool, id, int, obj, ok, projectParams, str } from '../http/schemas.ts';
import type { ProjectRow } from '../project/service.ts';
import { checkReferences } from './references.ts';
import {
  adminSummary,
  blankDocument,
  checkDocument,
  DOCUMENT_BODY_LIMIT,
  findPage,
  forgetPage,
  load,
  META_COLUMNS,
  type PageRow,
  type PublishedMeta,
  parseStored,
  publishedLoader,
  SUMMARY_COLUMNS,
  viewOf,
} from './service.ts';

const nullableInt = { type: ['integer', 'null'] };
const issueSchema = obj({
  path: str(),
  message: { type: 'string' },
  'keyword?': str(),
  'widgetId?': str(),
  'kind?': str(),
});
const summarySchema = obj({
  _id: str(),
  name: str(),
  display: bool(),
  version: nullableInt,
  publishedAt: nullableInt,
  changed: bool(),
  versions: int(),
  createdAt: int(),
  updatedAt: int(),
  updatedBy: { type: ['string', 'null'] },
});
const draftSchema = {
  ...summarySchema,
  properties: { ...(summarySchema.properties as object), document: anyObj() },
  required: [...(summarySchema.required as string[]), 'document'],
};
const versionSchema = obj({
  version: int(),
  note: { type: 'string' },
  createdAt: int(),
  createdBy: { type: ['string', 'null'] },
  createdByName: { type: ['string', 'null'] },
  published: bool(),
});
const appListSchema = obj({ _id: str(), name: str(), display: bool(), version: int(), publishedAt: int() });
const appPageSchema = obj({
  _id: str(),
  name: str(),
  display: bool(),
  version: nullableInt,
  publishedAt: nullableInt,
  preview: bool(),
  document: anyObj(),
  issues: { type: 'array', items: issueSchema },
});
const viewEntry = obj({ id: str(), kind: str(), x: int(), y: int(), w: int(), h: int() });
const viewSchema = obj({
  vid: str(),
  _id: str(),
  name: str(),
  version: int(),
  pc: { type: 'array', items: viewEntry },
  mobile: { type: 'array', items: viewEntry },
});
const pageParams = obj({ project: id(), id: id() });
const pageName = str(128, { minLength: 1 });

function cleanName(name: string): string {
  const n = name.trim();
  if (!n) fail(E.INVALID_FIELD, 'name: cannot be empty');
  return n;
}

export default async function pagePlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const tags = ['page'];
  const params = (request: FastifyRequest) => request.params as { project: string; id: string };
  const admin = (request: FastifyRequest) => authorize(request, params(request).project, { kind: 'admin' });
  const callerId = (request: FastifyRequest) => request.user?.id ?? null;
  const loadPublished = publishedLoader(db);

  const draftOf = (row: PageRow) => ({
    ...adminSummary(row),
    document: load(row.draft, row).document,
  });

  /** Next updated_at: after the last publish, so `changed` holds even within one millisecond. */
  const touched = (row: Pick<PageRow, 'published_at'>) => Math.max(Date.now(), (row.published_at ?? 0) + 1);

  // ---- Builder calls -------------------------------------------------------------------------

  app.get(
    '/api/admin/page/:project/',
    {
      schema: { tags, params: projectParams, response: { 200: ok({ type: 'array', items: summarySchema }) } },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      const rows = await db
        .selectFrom('pages')
        .select(SUMMARY_COLUMNS)
        .where('project_id', '=', project.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return { error: 0, data: rows.map(adminSummary) };
    },
  );

  app.get(
    '/api/admin/page/:project/:id',
    { schema: { tags, params: pageParams, response: { 200: ok(draftSchema) } }, preHandler: requireUser },
    async (request) => {
      const { project } = await admin(request);
      return { error: 0, data: draftOf(await findPage(db, project.id, params(request).id)) };
    },
  );

  app.post(
    '/api/admin/page/:project/create',
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
      const b = request.body as { name: string; document?: Record<string, unknown>; display?: boolean };
      const name = cleanName(b.name);
      const now = Date.now();
      const pid = newId(now);
      const draft = b.document ? checkDocument(b.document, pid) : JSON.stringify(blankDocument(pid, name));
      if (b.document) await checkReferences(db, project.id, pid, b.document, null);
      const row: PageRow = {
        id: pid,
        project_id: project.id,
        name,
        created_at: now,
        updated_at: now,
        draft,
        published: null,
        published_version: null,
        published_at: null,
        last_version: 0,
        display: b.display ? 1 : 0,
        updated_by: callerId(request),
      };
      await db.insertInto('pages').values(row).execute();
      return { error: 0, data: draftOf(row) };
    },
  );

  app.post(
    '/api/admin/page/:project/:id/update',
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
      const { project } = await admin(request);
      const row = await findPage(db, project.id, params(request).id);
      const b = request.body as { name?: string; document?: Record<string, unknown>; display?: boolean };
      // Everything is checked before anything is written.
      const next: PageRow = { ...row, updated_at: touched(row), updated_by: callerId(request) };
      if (b.name !== undefined) next.name = cleanName(b.name);
      if (b.document !== undefined) {
        next.draft = checkDocument(b.document, row.id);
        await checkReferences(db, project.id, row.id, b.document, parseStored(row.draft, row));
      }
      if (b.display !== undefined) next.display = b.display ? 1 : 0;
      await db
        .updateTable('pages')
        .set({
          name: next.name,
          draft: next.draft,
          display: next.display,
          updated_at: next.updated_at,
          updated_by: next.updated_by,
        })
        .where('id', '=', row.id)
        .where('project_id', '=', project.id)
        .execute();
      return { error: 0, data: draftOf(next) };
    },
  );

  app.post(
    '/api/admin/page/:project/:id/duplicate',
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
      const { project } = await admin(request);
      const src = await findPage(db, project.id, params(request).id);
      const b = (request.body ?? {}) as { name?: string };
      const now = Date.now();
      const pid = newId(now);
      const name = b.name !== undefined ? cleanName(b.name) : `${src.name} copy`.slice(0, 128);
      const doc = src.draft ? (JSON.parse(src.draft) as Record<string, unknown>) : blankDocument(pid, name);
      const row: PageRow = {
        id: pid,
        project_id: project.id,
        name,
        created_at: now,
        updated_at: now,
        draft: JSON.stringify({ ...doc, id: pid }),
        published: null,
        published_version: null,
        published_at: null,
        last_version: 0,
        display: src.display,
        updated_by: callerId(request),
      };
      await db.insertInto('pages').values(row).execute();
      return { error: 0, data: draftOf(row) };
    },
  );

  app.get(
    '/api/admin/page/:project/:id/remove',
    {
      schema: { tags, params: pageParams, response: { 200: ok(obj({ _id: str() })) } },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      const row = await findPage(db, project.id, params(request).id);
      // Close the live document first, so no queued edit is written after its rows are gone.
      await app.realtime.yjs.discard(row.id);
      await db.transaction().execute(async (trx) => {
        await forgetPage(trx, project.id, row.id);
        await trx.deleteFrom('page_versions').where('page_id', '=', row.id).execute();
        // The co-editing history of the page goes with it.
        await trx.deleteFrom('page_updates').where('doc_id', '=', row.id).execute();
        await trx.deleteFrom('pages').where('id', '=', row.id).where('project_id', '=', project.id).execute();
      });
      // A connection that opened the page in between is closed too (new ones now find no page).
      await app.realtime.yjs.discard(row.id, false);
      return { error: 0, data: { _id: row.id } };
    },
  );

  app.post(
    '/api/admin/page/:project/:id/publish',
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
      const { project } = await admin(request);
      const row = await findPage(db, project.id, params(request).id);
      const note = ((request.body ?? {}) as { note?: string }).note?.trim() ?? '';
      const now = Math.max(Date.now(), row.updated_at);
      const who = callerId(request);
      // One statement hands out the number (the row lock orders concurrent publishes on PostgreSQL)
      // and copies the draft as it is at that moment.
      const updated = await db.transaction().execute(async (trx) => {
        const r = await trx
          .updateTable('pages')
          .set((eb) => ({
            published: eb.ref('draft'),
            published_version: eb('last_version', '+', 1),
            last_version: eb('last_version', '+', 1),
            published_at: now,
          }))
          .where('id', '=', row.id)
          .where('project_id', '=', project.id)
          .returning(SUMMARY_COLUMNS)
          .returning('draft')
          .executeTakeFirst();
        if (!r) fail(E.PAGE_NOT_FOUND);
        await trx
          .insertInto('page_versions')
          .values({
            page_id: row.id,
            version: r.last_version,
            document: r.draft || JSON.stringify(blankDocument(row.id, row.name)),
            note,
            created_by: who,
            created_at: now,
          })
          .execute();
        return r;
      });
      return { error: 0, data: adminSummary(updated) };
    },
  );

  app.get(
    '/api/admin/page/:project/:id/versions',
    {
      schema: { tags, params: pageParams, response: { 200: ok({ type: 'array', items: versionSchema }) } },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      const row = await findPage(db, project.id, params(request).id);
      const list = await db
        .selectFrom('page_versions as v')
        .leftJoin('users as u', 'u.id', 'v.created_by')
        .select(['v.version', 'v.note', 'v.created_at', 'v.created_by', 'u.nickname'])
        .where('v.page_id', '=', row.id)
        .orderBy('v.version', 'desc')
        .execute();
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

  async function findVersion(pageId: string, version: number) {
    const v = await db
      .selectFrom('page_versions')
      .selectAll()
      .where('page_id', '=', pageId)
      .where('version', '=', version)
      .executeTakeFirst();
    if (!v) fail(E.PAGE_VERSION_NOT_FOUND, `version ${version}`);
    return v;
  }

  app.get(
    '/api/admin/page/:project/:id/version/:version',
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
      const { project } = await admin(request);
      const row = await findPage(db, project.id, params(request).id);
      const v = await findVersion(row.id, Number((request.params as { version: string }).version));
      return {
        error: 0,
        data: {
          version: v.version,
          note: v.note,
          createdAt: v.created_at,
          document: load(v.document, row).document,
        },
      };
    },
  );

  app.post(
    '/api/admin/page/:project/:id/restore',
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
      const { project } = await admin(request);
      const row = await findPage(db, project.id, params(request).id);
      const v = await findVersion(row.id, (request.body as { version: number }).version);
      const next: PageRow = {
        ...row,
        draft: v.document,
        updated_at: touched(row),
        updated_by: callerId(request),
      };
      await db
        .updateTable('pages')
        .set({ draft: next.draft, updated_at: next.updated_at, updated_by: next.updated_by })
        .where('id', '=', row.id)
        .where('project_id', '=', project.id)
        .execute();
      // Editors with the page open see the restored version arrive as one change; a page never
      // opened for co-editing starts from the restored draft when it is.
      const live =
        app.realtime.yjs.rooms.has(row.id) ||
        !!(await db
          .selectFrom('page_updates')
          .select('seq')
          .where('doc_id', '=', row.id)
          .limit(1)
          .executeTakeFirst());
      if (live) await app.realtime.yjs.replace(row.id, load(v.document, row).document);
      return { error: 0, data: draftOf(next) };
    },
  );

  // ---- End-user calls ------------------------------------------------------------------------

  const mayRead = (actor: Actor, project: ProjectRow, pageId: string) =>
    decide(actor, project, { kind: 'page', id: pageId }, 'read').allow;

  /** The published pages (optionally displays only) this actor may see. */
  async function visible(project: ProjectRow, actor: Actor, displaysOnly: boolean) {
    let q = db
      .selectFrom('pages')
      .select(SUMMARY_COLUMNS)
      .where('project_id', '=', project.id)
      .where('published_version', 'is not', null);
    if (displaysOnly) q = q.where('display', '=', 1);
    const rows = await q.orderBy('created_at').orderBy('id').execute();
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
  async function published(request: FastifyRequest, pageId: string, displaysOnly: boolean) {
    const { project, actor } = await authorize(request, params(request).project, { kind: 'app' });
    const row = await db
      .selectFrom('pages')
      .select(META_COLUMNS)
      .where('id', '=', pageId)
      .where('project_id', '=', project.id)
      .executeTakeFirst();
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

  const pageAnswer = (r: Awaited<ReturnType<typeof published>>) => ({
    _id: r.row.id,
    name: r.row.name,
    display: r.row.display === 1,
    version: r.row.published_version,
    publishedAt: r.row.published_at,
    preview: false,
    document: r.loaded.document,
    issues: r.loaded.issues,
  });
  const viewAnswer = (r: Awaited<ReturnType<typeof published>>) => ({
    vid: r.row.id,
    _id: r.row.id,
    name: r.row.name,
    version: r.row.published_version!,
    ...viewOf(r.loaded.document),
  });

  for (const [base, displaysOnly] of [
    ['/api/app/page', false],
    ['/api/app/dp', true],
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
    '/api/app/page/:project/:id',
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
    '/api/app/dp/:project/:id',
    {
      schema: { tags, params: pageParams, response: { 200: ok(appPageSchema) } },
      preHandler: optionalUser,
    },
    async (request) => ({ error: 0, data: pageAnswer(await published(request, params(request).id, true)) }),
  );

  app.post(
    '/api/app/page/:project/view/prepare',
    {
      schema: {
        tags,
        params: projectParams,
        body: obj({ view: { type: 'array', items: id(), maxItems: 100 } }),
        response: {
          200: ok({ type: 'object', additionalProperties: { ...appPageSchema } }),
        },
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, actor } = await authorize(request, params(request).project, { kind: 'app' });
      const ids = [...new Set((request.body as { view: string[] }).view)].filter((pid) =>
        mayRead(actor, project, pid),
      );
      const out: Record<string, ReturnType<typeof pageAnswer>> = {};
      if (ids.length === 0) return { error: 0, data: out };
      const rows = (await db
        .selectFrom('pages')
        .select(META_COLUMNS)
        .where('project_id', '=', project.id)
        .where('id', 'in', ids)
        .where('published_version', 'is not', null)
        .execute()) as PublishedMeta[];
      const loaded = await loadPublished(rows);
      for (const row of rows) {
        const page = loaded.get(row.id);
        if (page) out[row.id] = pageAnswer({ row, loaded: page });
      }
      return { error: 0, data: out };
    },
  );
}
