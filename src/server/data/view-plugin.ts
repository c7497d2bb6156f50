import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normalizeOrThrow, normalizeSummaryOrThrow } from '../../shared/query/index.ts';
import { decide, projectAccess } from '../access/decide.ts';
import { optionalUser } from '../access/guard.ts';
import { findRole } from '../access/roles.ts';
import { requireUser } from '../account/auth.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, id, obj, ok, str } from '../http/schemas.ts';
import { projectOptions } from '../project/service.ts';
import type { ShareType } from '../share/service.ts';
import { grantedEntity } from './app-records-plugin.ts';
import { loadMeta } from './meta.ts';
import { summarizeRecords } from './records.ts';
import { userContext } from './records-plugin.ts';
import {
  findSavedFilter,
  listSavedFilters,
  parseFilter,
  putSavedFilter,
  removeSavedFilter,
  roleClause,
  roleFilter,
  setRoleFilter,
  withClause,
} from './view-service.ts';

const entityRef = { type: 'string', minLength: 1, maxLength: 64 };
const params = obj({ project: id(), entity: entityRef });
const shareType = { type: 'string', enum: ['private', 'public', 'project'] };
const filterId = { type: 'string', pattern: '^[0-9a-f]{24}$' };
const filterBody = { type: 'object', maxProperties: 4 };
const tags = ['data'];

/**
 * End-user data views: saved filters of a table (private, public, project; stored through the share
 * service), the role default filter every user of the role gets, and statistics over the whole
 * filtered set. The caller's role must be granted the table; fields they do not see cannot be named.
 */
async function viewPlugin(app: FastifyInstance): Promise<void> {
  const { db, dialect } = app.database;
  const V = '/api/app/view/:project/:entity';

  app.post(
    `${V}/filters`,
    {
      schema: { tags, params, body: { type: 'object', maxProperties: 0 }, response: { 200: ok(anyObj()) } },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, meta, actor } = await grantedEntity(request, 'read');
      const role = await roleFilter(db, project.id, meta, actor.role?.id);
      return {
        error: 0,
        data: {
          filters: await listSavedFilters(db, project.id, meta, actor.userId),
          // The role's default: shown to the user, applied by the server, not removable.
          role: role === 'unusable' ? null : role,
        },
      };
    },
  );

  app.post(
    `${V}/filters/save`,
    {
      schema: {
        tags,
        params,
        body: obj({
          'id?': filterId,
          name: str(100, { minLength: 1 }),
          type: shareType,
          filter: filterBody,
          /** The type it had, when its type changes (it moves). */
          'from?': shareType,
        }),
        response: { 200: ok(anyObj()) },
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, meta, actor } = await grantedEntity(request, 'read');
      const b = request.body as {
        id?: string;
        name: string;
        type: ShareType;
        filter: unknown;
        from?: ShareType;
      };
      const filter = parseFilter(b.filter, meta);
      const may = (type: ShareType, createdBy?: string | null) => {
        const d = decide(actor, project, { kind: 'share', type, createdBy }, 'write');
        if (!d.allow) fail(d.error, d.reason);
      };
      let createdBy = actor.userId;
      let existing = false;
      if (b.id) {
        // Renaming or moving: the filter must be one the caller can see and change.
        const old = await findSavedFilter(db, project.id, meta, b.from ?? b.type, b.id, actor.userId);
        may(b.from ?? b.type, old.row.created_by);
        createdBy = old.row.created_by;
        if (b.from && b.from !== b.type) await removeSavedFilter(db, old.k);
        else existing = true;
      }
      may(b.type, existing ? createdBy : undefined);
      const saved = await putSavedFilter(
        db,
        project.id,
        meta,
        { id: b.id, name: b.name.trim(), type: b.type, filter },
        actor.userId,
        existing,
        createdBy,
      );
      return { error: 0, data: saved };
    },
  );

  app.post(
    `${V}/filters/remove`,
    {
      schema: {
        tags,
        params,
        body: obj({ id: filterId, type: shareType }),
        response: { 200: ok(anyObj()) },
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, meta, actor } = await grantedEntity(request, 'read');
      const b = request.body as { id: string; type: ShareType };
      const { k, row } = await findSavedFilter(db, project.id, meta, b.type, b.id, actor.userId);
      const d = decide(actor, project, { kind: 'share', type: b.type, createdBy: row.created_by }, 'write');
      if (!d.allow) fail(d.error, d.reason);
      await removeSavedFilter(db, k);
      return { error: 0, data: { removed: true } };
    },
  );

  // Statistics over the whole filtered set (never a page): totals, and per group when grouped.
  app.post(
    '/api/app/simple/:project/:entity/summary',
    {
      schema: { tags, params, body: { type: 'object', maxProperties: 32 }, response: { 200: ok(anyObj()) } },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, meta, actor } = await grantedEntity(request, 'read');
      const raw = (request.body ?? {}) as { summary?: unknown };
      const body = withClause(raw, await roleClause(db, project.id, meta, actor.role?.id));
      const q = normalizeOrThrow(body, {
        now: Date.now(),
        user: userContext(request),
        fields: meta.queryTypes,
      });
      const spec = normalizeSummaryOrThrow(
        { accuracy: projectOptions(project).accuracy, ...((raw.summary as object) ?? {}) },
        meta.queryTypes,
      );
      return { error: 0, data: await summarizeRecords(db, dialect, meta, q, spec) };
    },
  );

  // A role's default filter of a table (builders): `filter: null` clears it.
  app.post(
    '/api/admin/view/:project/:entity/role-filter',
    {
      schema: {
        tags,
        params,
        body: obj({
          role: id(),
          filter: {
            anyOf: [
              obj({
                conditions: {
                  type: 'array',
                  maxItems: 50,
                  items: obj({ field: str(64), opt: str(32), 'value?': {} }),
                },
                'match?': { type: 'string', enum: ['and', 'or'] },
              }),
              { type: 'null' },
            ],
          },
        }),
        response: { 200: ok(anyObj()) },
      },
      preHandler: requireUser,
    },
    async (request: FastifyRequest) => {
      const p = request.params as { project: string; entity: string };
      const { project } = await projectAccess(request, p.project, { admin: true });
      const meta = await loadMeta(db, project.id, p.entity);
      const b = request.body as { role: string; filter: unknown };
      const role = await findRole(db, project.id, b.role).catch(() => fail(E.VIEW_ROLE_UNKNOWN));
      const spec = b.filter === null ? null : parseFilter(b.filter, meta);
      await setRoleFilter(db, project.id, meta.entity.id, role.id, spec, request.user?.id ?? null);
      return { error: 0, data: { role: role.id, filter: spec } };
    },
  );
}

export default area('lc-data-view', viewPlugin);
