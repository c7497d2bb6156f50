import type { FastifyInstance, FastifyRequest } from 'fastify';
import { projectAccess } from '../access/decide.ts';
import { requireUser } from '../account/auth.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, id, obj, ok } from '../http/schemas.ts';
import { apiIndex } from './auto-index.ts';
import { loadMeta } from './meta.ts';
import { apiRollup } from './rollup.ts';

const entityRef = { type: 'string', minLength: 1, maxLength: 64 };
const params = obj({ project: id(), entity: entityRef });
// An index or rollup id that is not one is a bad request (1000), as every id in a path is.
const indexParams = obj({ project: id(), entity: entityRef, index: id() });
const rollupParams = obj({ project: id(), entity: entityRef, rollup: id() });
const tags = ['data'];

/**
 * Builders' view of the managed indexes of a table (auto-index.ts): the indexes the server built
 * for recurring slow query shapes with their use counts, the shapes still being watched; pin one
 * (never dropped for disuse) or drop one. The table's rollups (rollup.ts) are listed beside them,
 * pinned and dropped the same way.
 */
async function indexPlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const P = '/api/admin/data/:project/:entity/indexes';
  const table = async (request: FastifyRequest) => {
    const p = request.params as { project: string; entity: string };
    const { project } = await projectAccess(request, p.project, { admin: true });
    return loadMeta(db, project.id, p.entity);
  };
  const row = async (request: FastifyRequest) => {
    const meta = await table(request);
    const ref = (request.params as { index: string }).index;
    const r = await db
      .selectFrom('data_indexes')
      .selectAll()
      .where('id', '=', ref)
      .where('entity_id', '=', meta.entity.id)
      .executeTakeFirst();
    if (!r) fail(E.INDEX_NOT_FOUND);
    return r;
  };
  const rollupRow = async (request: FastifyRequest) => {
    const meta = await table(request);
    const ref = (request.params as { rollup: string }).rollup;
    const r = await db
      .selectFrom('data_rollups')
      .selectAll()
      .where('id', '=', ref)
      .where('entity_id', '=', meta.entity.id)
      .executeTakeFirst();
    if (!r) fail(E.ROLLUP_NOT_FOUND);
    return { meta, r };
  };

  app.post(
    P,
    {
      schema: { tags, params, body: { type: 'object', maxProperties: 0 }, response: { 200: ok(anyObj()) } },
      preHandler: requireUser,
    },
    async (request) => {
      const meta = await table(request);
      await app.autoIndex.flushUses();
      await app.autoIndex.rollups.flushUses();
      const rollups = await db
        .selectFrom('data_rollups')
        .selectAll()
        .where('entity_id', '=', meta.entity.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const rows = await db
        .selectFrom('data_indexes')
        .selectAll()
        .where('entity_id', '=', meta.entity.id)
        .orderBy('created_at')
        .execute();
      const byColumn = new Map(meta.fields.map((f) => [f.code, f.name]));
      return {
        error: 0,
        data: {
          indexes: rows.map((r) => {
            const x = apiIndex(r);
            return { ...x, fields: x.fields.map((f) => ({ ...f, name: byColumn.get(f.field) ?? f.field })) };
          }),
          watching: app.autoIndex.shapesOf(meta.table),
          limit: app.autoIndex.options.maxPerTable,
          rollups: rollups.map((r) => {
            const x = apiRollup(r, meta);
            const named = <T extends { field: string }>(f: T) => ({
              ...f,
              name: byColumn.get(f.field) ?? f.field,
            });
            return { ...x, fields: x.fields.map(named), values: x.values.map(named) };
          }),
          rollupLimit: app.autoIndex.options.maxRollups,
        },
      };
    },
  );

  // A builder's index on 1–3 chosen fields, each ascending or descending (/system/data/{entity}): built now, pinned.
  app.post(
    `${P}/create`,
    {
      schema: {
        tags,
        params,
        body: obj({
          fields: {
            type: 'array',
            items: obj({
              field: { type: 'string', minLength: 1, maxLength: 64 },
              'order?': { type: 'string', enum: ['asc', 'desc'] },
            }),
            minItems: 1,
            maxItems: 3,
          },
        }),
        response: { 200: ok(anyObj()) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const meta = await table(request);
      const fields = (request.body as { fields: { field: string; order?: 'asc' | 'desc' }[] }).fields;
      const codes = fields.map((f) => f.field);
      if (new Set(codes).size !== codes.length || codes.some((f) => !meta.byCode.has(f)))
        fail(E.INDEX_FIELDS_INVALID, 'fields: distinct field codes of this table');
      const made = await app.autoIndex.create(meta, fields);
      if (made === 'fields') fail(E.INDEX_FIELDS_INVALID, 'fields: lists and collections cannot be indexed');
      if (made === 'exists') fail(E.INDEX_EXISTS);
      if (made === 'limit') fail(E.INDEX_LIMIT, `at most ${app.autoIndex.options.maxPerTable}`);
      const r = await db
        .selectFrom('data_indexes')
        .selectAll()
        .where('id', '=', made)
        .executeTakeFirstOrThrow();
      return { error: 0, data: apiIndex(r) };
    },
  );

  app.post(
    `${P}/:index/pin`,
    {
      schema: {
        tags,
        params: indexParams,
        body: obj({ pinned: { type: 'boolean' } }),
        response: { 200: ok(anyObj()) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const r = await row(request);
      const pinned = (request.body as { pinned: boolean }).pinned ? 1 : 0;
      const done = await db
        .updateTable('data_indexes')
        .set({ pinned })
        .where('id', '=', r.id)
        .executeTakeFirst();
      // Dropped meanwhile (the disuse sweep, another builder): nothing was pinned.
      if (Number(done.numUpdatedRows) === 0) fail(E.INDEX_NOT_FOUND);
      return { error: 0, data: apiIndex({ ...r, pinned }) };
    },
  );

  app.post(
    `${P}/:index/remove`,
    {
      schema: {
        tags,
        params: indexParams,
        body: { type: 'object', maxProperties: 0 },
        response: { 200: ok(anyObj()) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const r = await row(request);
      await app.autoIndex.drop(r.id);
      return { error: 0, data: { removed: true } };
    },
  );

  app.post(
    `${P}/rollups/:rollup/pin`,
    {
      schema: {
        tags,
        params: rollupParams,
        body: obj({ pinned: { type: 'boolean' } }),
        response: { 200: ok(anyObj()) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { meta, r } = await rollupRow(request);
      const pinned = (request.body as { pinned: boolean }).pinned ? 1 : 0;
      const done = await db
        .updateTable('data_rollups')
        .set({ pinned })
        .where('id', '=', r.id)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) === 0) fail(E.ROLLUP_NOT_FOUND);
      return { error: 0, data: apiRollup({ ...r, pinned }, meta) };
    },
  );

  app.post(
    `${P}/rollups/:rollup/remove`,
    {
      schema: {
        tags,
        params: rollupParams,
        body: { type: 'object', maxProperties: 0 },
        response: { 200: ok(anyObj()) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { r } = await rollupRow(request);
      await app.autoIndex.rollups.drop(r.id);
      return { error: 0, data: { removed: true } };
    },
  );
}

export default area('lc-data-index', indexPlugin);
