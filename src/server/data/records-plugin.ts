import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normalizeOrThrow, normalizeSummaryOrThrow } from '../../shared/query/index.ts';
import { projectAccess } from '../access/decide.ts';
import { caller, requireUser } from '../account/auth.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, id, obj, ok } from '../http/schemas.ts';
import { type ProjectRow, projectOptions } from '../project/service.ts';
import { type EntityMeta, loadMeta } from './meta.ts';
import {
  BULK_MAX,
  bulkWrite,
  getRecord,
  queryRecords,
  removeRecord,
  saveRecord,
  summarizeRecords,
  updateRecord,
  type WriteBy,
} from './records.ts';
import { apiField } from './schema-service.ts';

const entityRef = { type: 'string', minLength: 1, maxLength: 64 };
const params = obj({ project: id(), entity: entityRef });
const recordParams = obj({ project: id(), entity: entityRef, id: { type: 'string', maxLength: 64 } });
/** Query payloads are parsed defensively by normalize(); the schema only bounds their shape. */
const queryBody = { type: 'object', maxProperties: 32 };
const tags = ['data'];
/** One record, or a list of up to BULK_MAX records saved in one transaction. */
export const saveBody = {
  type: ['object', 'array'],
  additionalProperties: true,
  maxItems: BULK_MAX,
  description: `a record, or a list of 1 to ${BULK_MAX} records written in one transaction`,
};
/** A list write's body: its rows are checked one by one (per-row errors), the schema only bounds it. */
export const listBody = { type: 'array', maxItems: BULK_MAX };

/** Who a data call writes for, and the record triggers its writes fire (`signedIn`: anonymous refused). */
export function writeBy(request: FastifyRequest, signedIn = false): WriteBy {
  if (signedIn) caller(request);
  return { user: userContext(request), triggers: request.server.recordTriggers };
}

/** The caller's user as `$$USER` sees it. */
export function userContext(request: FastifyRequest) {
  // Anonymous users of a public project have none: `$$USER` clauses then match nothing.
  const u = request.user;
  return u ? { _id: u.id, account: u.account, nickname: u.nickname, phone: u.phone } : null;
}

export async function runQuery(
  request: FastifyRequest,
  project: ProjectRow,
  meta: EntityMeta,
  body: unknown,
) {
  const { db, dialect } = request.server.database;
  const q = normalizeOrThrow(body ?? {}, {
    now: Date.now(),
    user: userContext(request),
    fields: meta.queryTypes,
  });
  void project;
  const result = await queryRecords(db, dialect, meta, q);
  return {
    data: result.data,
    ...(result.count !== undefined ? { count: result.count } : {}),
    page: { index: Math.floor(q.offset / Math.max(q.limit, 1)) + 1, size: q.limit },
  };
}

/** Admin data calls (builders): any table of the project. */
async function recordsPlugin(app: FastifyInstance): Promise<void> {
  const { db, dialect } = app.database;
  const P = '/api/admin/data/:project/:entity';
  const admin = async (request: FastifyRequest) => {
    const p = request.params as { project: string; entity: string };
    const { project } = await projectAccess(request, p.project, { admin: true });
    return { project, meta: await loadMeta(db, project.id, p.entity) };
  };

  app.post(
    `${P}/query`,
    { schema: { tags, params, body: queryBody, response: { 200: ok(anyObj()) } }, preHandler: requireUser },
    async (request) => {
      const { project, meta } = await admin(request);
      return { error: 0, data: await runQuery(request, project, meta, request.body) };
    },
  );

  app.post(
    `${P}/meta`,
    {
      schema: { tags, params, body: { type: 'object', maxProperties: 0 }, response: { 200: ok(anyObj()) } },
      preHandler: requireUser,
    },
    async (request) => {
      const { project, meta } = await admin(request);
      return {
        error: 0,
        data: {
          entity: { _id: meta.entity.id, _name: meta.entity.name, _code: meta.entity.code },
          field: meta.fields.map(apiField),
          shortcut: [],
          option: projectOptions(project),
        },
      };
    },
  );

  app.post(
    `${P}/summary`,
    { schema: { tags, params, body: queryBody, response: { 200: ok(anyObj()) } }, preHandler: requireUser },
    async (request) => {
      const { project, meta } = await admin(request);
      const body = (request.body ?? {}) as { summary?: unknown };
      const q = normalizeOrThrow(body, {
        now: Date.now(),
        user: userContext(request),
        fields: meta.queryTypes,
      });
      const spec = normalizeSummaryOrThrow(
        { accuracy: projectOptions(project).accuracy, ...((body.summary as object) ?? {}) },
        meta.queryTypes,
      );
      return { error: 0, data: await summarizeRecords(db, dialect, meta, q, spec) };
    },
  );

  app.post(
    `${P}/save`,
    { schema: { tags, params, body: saveBody, response: { 200: ok(anyObj()) } }, preHandler: requireUser },
    async (request) => {
      const { meta } = await admin(request);
      if (Array.isArray(request.body))
        return { error: 0, data: await bulkWrite(db, meta, 'save', request.body, writeBy(request, true)) };
      return {
        error: 0,
        data: await saveRecord(db, meta, request.body as Record<string, unknown>, writeBy(request, true)),
      };
    },
  );

  // Lists of updates (`[{ _id, ...fields }]`) and removes (`[id]`): one transaction (records.ts bulkWrite).
  for (const op of ['update', 'remove'] as const) {
    app.post(
      `${P}/${op}`,
      { schema: { tags, params, body: listBody, response: { 200: ok(anyObj()) } }, preHandler: requireUser },
      async (request) => {
        const { meta } = await admin(request);
        return { error: 0, data: await bulkWrite(db, meta, op, request.body, writeBy(request)) };
      },
    );
  }

  app.post(
    `${P}/:id/update`,
    {
      schema: { tags, params: recordParams, body: anyObj(), response: { 200: ok(anyObj()) } },
      preHandler: requireUser,
    },
    async (request) => {
      const { meta } = await admin(request);
      const { id: rid } = request.params as { id: string };
      return {
        error: 0,
        data: await updateRecord(db, meta, rid, request.body as Record<string, unknown>, writeBy(request)),
      };
    },
  );

  app.post(
    `${P}/:id/remove`,
    {
      schema: {
        tags,
        params: recordParams,
        body: { type: 'object', maxProperties: 0 },
        response: { 200: ok(anyObj()) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { meta } = await admin(request);
      const { id: rid } = request.params as { id: string };
      await removeRecord(db, meta, rid, writeBy(request));
      return { error: 0, data: { removed: true } };
    },
  );

  app.get(
    `${P}/:id`,
    { schema: { tags, params: recordParams, response: { 200: ok(anyObj()) } }, preHandler: requireUser },
    async (request) => {
      const { meta } = await admin(request);
      return { error: 0, data: await getRecord(db, meta, (request.params as { id: string }).id) };
    },
  );
}

export default area('lc-records', recordsPlugin);
