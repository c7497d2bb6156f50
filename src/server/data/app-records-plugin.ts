import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NUMBERING_MODEL } from '../../shared/admin/numbering.ts';
import { readTableConfig, type TableConfig, tableConfigKey } from '../../shared/admin/table-config.ts';
import { normalizeOrThrow } from '../../shared/query/index.ts';
import { authorize, decide } from '../access/decide.ts';
import { optionalUser } from '../access/guard.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, id, obj, ok } from '../http/schemas.ts';
import { findItem } from '../share/service.ts';
import { type EntityMeta, metaOf } from './meta.ts';
import { bulkWrite, queryIds, removeRecord, saveRecord, updateRecord, type WriteBy } from './records.ts';
import { listBody, runQuery, saveBody, userContext, writeBy } from './records-plugin.ts';
import { apiField, type EntityRow, findEntity } from './schema-service.ts';
import { roleClause, roleFilter, withClause } from './view-service.ts';

const entityRef = { type: 'string', minLength: 1, maxLength: 64 };
const params = obj({ project: id(), entity: entityRef });
const recordParams = obj({ project: id(), entity: entityRef, id: { type: 'string', maxLength: 64 } });
const tags = ['data'];

/**
 * The access decision for a data call on `:project/:entity`: the caller's role must be granted the
 * table; managers get every field, other roles a meta without hidden fields.
 */
export async function grantedEntity(
  request: FastifyRequest,
  action: 'read' | 'write',
  /** The table when the path does not name it: found from the project (`_id`, code, or unique name). */
  pick?: (projectId: string) => Promise<EntityRow>,
) {
  const { db } = request.server.database;
  const p = request.params as { project: string; entity?: string };
  const { project, actor } = await authorize(request, p.project, { kind: 'app' });
  const entity = pick ? await pick(project.id) : await findEntity(db, project.id, p.entity ?? '');
  const d = decide(actor, project, { kind: 'entity', id: entity.id }, action);
  if (!d.allow) fail(d.error, d.reason);
  const manager = decide(actor, project, { kind: 'hidden-fields', entity: entity.id }, 'read').allow;
  const meta: EntityMeta = await metaOf(db, entity, !manager);
  return { project, meta, actor, manager };
}

/**
 * The caller's bounds for saving and updating: the ids among those just written that the role's
 * default filter of the table does not match (read in the write's own transaction, so a refused write
 * leaves nothing). None when the role has no filter.
 */
export function roleBounds(request: FastifyRequest, clause: unknown): WriteBy['outside'] {
  if (clause === null || clause === undefined) return undefined;
  const { dialect } = request.server.database;
  return async (trx, meta, ids) => {
    const q = normalizeOrThrow(
      {
        query: { $and: [clause, { field: '_id', type: '_id', opt: 'set', value: ids }] },
        page: { index: 1, size: ids.length },
      },
      { now: Date.now(), user: userContext(request), fields: meta.queryTypes },
    );
    const inside = new Set(await queryIds(trx, dialect, meta, q));
    return new Set(ids.filter((x) => !inside.has(x)));
  };
}

/**
 * End-user data calls. The caller's role must be granted the table; managers see every field, other
 * roles never see hidden fields, cannot filter or sort on them (the query is refused as naming an
 * unknown field), and cannot write them.
 */
async function appRecordsPlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const granted = (request: FastifyRequest, action: 'read' | 'write') => grantedEntity(request, action);
  /**
   * Changing records by id: each must lie inside the role's default filter of the table (the user
   * does not see the others, and may not reach them by editing the request) → ROLE_RECORD_OUTSIDE.
   */
  const writable = async (request: FastifyRequest, ids: unknown[]) => {
    const g = await granted(request, 'write');
    const role = await roleClause(db, g.project.id, g.meta, g.actor.role?.id);
    const list = [...new Set(ids.filter((x): x is string => typeof x === 'string' && x !== ''))];
    if (role && list.length) {
      const found = await runQuery(request, g.project, g.meta, {
        query: { $and: [role, { field: '_id', type: '_id', opt: 'set', value: list }] },
        page: { index: 1, size: list.length },
      });
      if (found.data.length < list.length) fail(E.ROLE_RECORD_OUTSIDE);
    }
    return { ...g, role };
  };
  /** Who writes, kept inside the role's default filter of the table (ROLE_RECORD_WOULD_LEAVE). */
  const boundedBy = (request: FastifyRequest, role: unknown, signedIn = false): WriteBy => ({
    ...writeBy(request, signedIn),
    outside: roleBounds(request, role),
  });
  /**
   * The table's advanced settings (/system/data/{entity}, kept as `config`/`project`/`table.{entity}`)
   * as this caller may see them: a sort or label on a field hidden from them is left out.
   */
  const tableConfig = async (projectId: string, meta: EntityMeta): Promise<TableConfig> => {
    const row = await findItem(db, {
      projectId,
      model: NUMBERING_MODEL,
      type: 'project',
      owner: '',
      key: tableConfigKey(meta.entity.id),
    });
    let cfg = readTableConfig(null);
    try {
      if (row) cfg = readTableConfig(JSON.parse(row.value));
    } catch {
      // A stored value that is not JSON reads as the defaults (the store refuses such values).
    }
    const seen = (f: string) => Object.hasOwn(meta.queryTypes, f);
    return {
      ...cfg,
      sort: cfg.sort && seen(cfg.sort.field) ? cfg.sort : null,
      labels: cfg.labels.filter((l) => seen(l.field)),
    };
  };
  /** A read that names no order gets the table's default sort, when the caller sees that field. */
  const withDefaultSort = async (projectId: string, meta: EntityMeta, body: unknown): Promise<unknown> => {
    const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
      string,
      unknown
    >;
    const asked = b.sort;
    if (asked !== undefined && asked !== null && !(Array.isArray(asked) && asked.length === 0)) return body;
    const { sort } = await tableConfig(projectId, meta);
    return sort ? { ...b, sort: [sort] } : body;
  };
  const idsOf = (body: unknown): unknown[] =>
    Array.isArray(body)
      ? body.map((x) => (typeof x === 'object' && x !== null ? (x as { _id?: unknown })._id : x))
      : [];

  const S = '/api/app/simple/:project/:entity';
  app.post(
    `${S}/query`,
    {
      schema: { tags, params, body: { type: 'object', maxProperties: 32 }, response: { 200: ok(anyObj()) } },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, meta, actor } = await granted(request, 'read');
      // The role's default filter of the table always applies (data-views: not removable by the user).
      const body = withClause(request.body, await roleClause(db, project.id, meta, actor.role?.id));
      return {
        error: 0,
        data: await runQuery(request, project, meta, await withDefaultSort(project.id, meta, body)),
      };
    },
  );
  // The fields the caller may see (the page runtime's table columns and form fields).
  app.post(
    `${S}/meta`,
    {
      schema: { tags, params, body: { type: 'object', maxProperties: 0 }, response: { 200: ok(anyObj()) } },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, meta, actor } = await granted(request, 'read');
      const role = await roleFilter(db, project.id, meta, actor.role?.id);
      return {
        error: 0,
        data: {
          entity: { _id: meta.entity.id, _name: meta.entity.name, _code: meta.entity.code },
          field: meta.fields.map(apiField),
          // What the data view starts from: the table's settings, and the role's default filter
          // (shown to the user as a chip they cannot remove; the server applies it to every call).
          config: await tableConfig(project.id, meta),
          role: role === 'unusable' ? null : role,
        },
      };
    },
  );
  app.post(
    `${S}/save`,
    { schema: { tags, params, body: saveBody, response: { 200: ok(anyObj()) } }, preHandler: optionalUser },
    async (request) => {
      const { project, meta, actor } = await granted(request, 'write');
      // A new record must lie inside the role's default filter: the user could not see it otherwise.
      const by = boundedBy(request, await roleClause(db, project.id, meta, actor.role?.id), true);
      if (Array.isArray(request.body))
        return { error: 0, data: await bulkWrite(db, meta, 'save', request.body, by) };
      return {
        error: 0,
        data: await saveRecord(db, meta, request.body as Record<string, unknown>, by),
      };
    },
  );
  app.post(
    `${S}/:id/update`,
    {
      schema: { tags, params: recordParams, body: anyObj(), response: { 200: ok(anyObj()) } },
      preHandler: optionalUser,
    },
    async (request) => {
      const { meta, role } = await writable(request, [(request.params as { id: string }).id]);
      return {
        error: 0,
        data: await updateRecord(
          db,
          meta,
          (request.params as { id: string }).id,
          request.body as Record<string, unknown>,
          boundedBy(request, role),
        ),
      };
    },
  );
  app.post(
    `${S}/:id/remove`,
    {
      schema: {
        tags,
        params: recordParams,
        body: { type: 'object', maxProperties: 0 },
        response: { 200: ok(anyObj()) },
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const { meta } = await writable(request, [(request.params as { id: string }).id]);
      await removeRecord(db, meta, (request.params as { id: string }).id, writeBy(request));
      return { error: 0, data: { removed: true } };
    },
  );

  // Lists of updates (`[{ _id, ...fields }]`) and removes (`[id]`): one transaction (records.ts bulkWrite).
  for (const op of ['update', 'remove'] as const) {
    app.post(
      `${S}/${op}`,
      { schema: { tags, params, body: listBody, response: { 200: ok(anyObj()) } }, preHandler: optionalUser },
      async (request) => {
        const { meta, role } = await writable(request, idsOf(request.body));
        return { error: 0, data: await bulkWrite(db, meta, op, request.body, boundedBy(request, role)) };
      },
    );
  }

  // Search a table for pickers: records whose `key` field contains `value`, within `query`.
  app.post(
    '/api/d/:project/:entity/filter',
    {
      schema: {
        tags,
        params,
        body: obj({
          'key?': { type: 'string', maxLength: 64 },
          'value?': { type: ['string', 'number', 'null'], maxLength: 1000 },
          'query?': { type: ['object', 'array'] },
        }),
        response: { 200: ok(anyObj()) },
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, meta, actor } = await granted(request, 'read');
      const b = request.body as { key?: string; value?: string | number | null; query?: unknown };
      const key = b.key || meta.nameField?.code;
      const clauses: unknown[] = [];
      const role = await roleClause(db, project.id, meta, actor.role?.id);
      if (role) clauses.push(role);
      if (b.query) clauses.push(Array.isArray(b.query) ? { $and: b.query } : b.query);
      if (key && b.value !== undefined && b.value !== null && b.value !== '') {
        if (!meta.byCode.has(key)) fail(E.INVALID_FIELD, `key: no such field`);
        clauses.push({
          field: key,
          type: meta.queryTypes[key],
          opt: meta.queryTypes[key] === 'text' ? 'contain' : 'eq',
          value: b.value,
        });
      }
      return {
        error: 0,
        data: await runQuery(request, project, meta, {
          query: { $and: clauses },
          page: { index: 1, size: 20 },
        }),
      };
    },
  );
}

export default area('lc-app-records', appRecordsPlugin);
