/** Menus: /api/admin/route/{project}/… for builders, /api/app/rt/{project}/list for end users. */
import type { FastifyInstance } from 'fastify';
import { newId } from '../../shared/id.ts';
import { authorize, decide } from '../access/decide.ts';
import { optionalUser } from '../access/guard.ts';
import { requireUser } from '../account/auth.ts';
import { E, fail } from '../errors.ts';
import { anyObj, bool, id, int, obj, ok, projectParams, str } from '../http/schemas.ts';
import {
  checkParent,
  checkValue,
  findRoute,
  listRoutes,
  NO_PROGRAMS,
  nest,
  parsePrograms,
  publicRoute,
  ROUTE_TYPES,
  type RouteRow,
} from './service.ts';

const routeSchema = obj({
  _id: str(),
  _type: str(),
  _name: str(),
  name: str(),
  _parent: { type: ['string', 'null'] },
  _value: { type: ['string', 'null'] },
  _sort: int(),
  _program: { type: 'array', items: str() },
});
const routeType = { type: 'string', enum: [...ROUTE_TYPES] };
const parentSchema = { anyOf: [id(), { type: 'null' }, { const: '' }] };
const valueSchema = { type: ['string', 'null'], maxLength: 255 };
const routeParams = obj({ project: id(), id: id() });

function cleanName(name: string): string {
  const n = name.trim();
  if (!n) fail(E.INVALID_FIELD, 'name: cannot be empty');
  return n;
}

export default async function routePlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const tags = ['route'];
  const admin = (request: Parameters<typeof authorize>[0]) =>
    authorize(request, (request.params as { project: string }).project, { kind: 'admin' });

  app.get(
    '/api/admin/route/:project/list',
    {
      schema: { tags, params: projectParams, response: { 200: ok({ type: 'array', items: routeSchema }) } },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      return { error: 0, data: (await listRoutes(db, project.id)).map(publicRoute) };
    },
  );

  app.post(
    '/api/admin/route/:project/create',
    {
      schema: {
        tags,
        params: projectParams,
        body: obj({ type: routeType, name: str(128), 'parent?': parentSchema, 'value?': valueSchema }),
        response: { 200: ok(routeSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      const b = request.body as {
        type: RouteRow['type'];
        name: string;
        parent?: string | null;
        value?: string | null;
      };
      const name = cleanName(b.name);
      const parent = b.parent || null;
      if (parent) await checkParent(db, project.id, parent, null);
      await checkValue(db, project.id, b.type, b.value ?? null);
      const last = await db
        .selectFrom('routes')
        .select((eb) => eb.fn.max('sort').as('m'))
        .where('project_id', '=', project.id)
        .executeTakeFirst();
      const now = Date.now();
      const row: RouteRow = {
        id: newId(now),
        project_id: project.id,
        parent_id: parent,
        sort: Number(last?.m ?? -1) + 1,
        type: b.type,
        name,
        value: b.value ?? null,
        programs: '[]',
        created_at: now,
        updated_at: now,
      };
      await db.insertInto('routes').values(row).execute();
      return { error: 0, data: publicRoute(row) };
    },
  );

  app.post(
    '/api/admin/route/:project/:id/update',
    {
      schema: {
        tags,
        params: routeParams,
        body: obj({ 'type?': routeType, 'name?': str(128), 'parent?': parentSchema, 'value?': valueSchema }),
        response: { 200: ok(routeSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      const route = await findRoute(db, project.id, (request.params as { id: string }).id);
      const b = request.body as {
        type?: RouteRow['type'];
        name?: string;
        parent?: string | null;
        value?: string | null;
      };
      const next: RouteRow = { ...route, updated_at: Date.now() };
      if (b.name !== undefined) next.name = cleanName(b.name);
      if (b.type !== undefined) next.type = b.type;
      if (b.value !== undefined) next.value = b.value;
      if (b.parent !== undefined) next.parent_id = b.parent || null;
      if (next.parent_id && b.parent !== undefined)
        await checkParent(db, project.id, next.parent_id, route.id);
      if (NO_PROGRAMS.includes(next.type) && parsePrograms(next.programs).length > 0)
        fail(E.ROUTE_NO_PROGRAMS);
      if (route.type === 'dir' && next.type !== 'dir') {
        const child = await db
          .selectFrom('routes')
          .select('id')
          .where('project_id', '=', project.id)
          .where('parent_id', '=', route.id)
          .executeTakeFirst();
        if (child) fail(E.ROUTE_PARENT, 'a directory with entries must stay a directory');
      }
      // A target removed since is not checked again on a rename; a changed type or value is.
      if (b.type !== undefined || b.value !== undefined)
        await checkValue(db, project.id, next.type, next.value);
      await db
        .updateTable('routes')
        .set({
          name: next.name,
          type: next.type,
          value: next.value,
          parent_id: next.parent_id,
          updated_at: next.updated_at,
        })
        .where('id', '=', route.id)
        .where('project_id', '=', project.id)
        .execute();
      return { error: 0, data: publicRoute(next) };
    },
  );

  app.post(
    '/api/admin/route/:project/sort',
    {
      schema: {
        tags,
        params: projectParams,
        body: obj({ routes: { type: 'array', items: id(), minItems: 1, maxItems: 5000, uniqueItems: true } }),
        response: { 200: ok(obj({ sorted: int() })) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      const { routes } = request.body as { routes: string[] };
      const own = new Set((await listRoutes(db, project.id)).map((r) => r.id));
      const missing = routes.find((r) => !own.has(r));
      if (missing) fail(E.ROUTE_NOT_FOUND, missing);
      await db.transaction().execute(async (trx) => {
        for (const [i, rid] of routes.entries()) {
          await trx
            .updateTable('routes')
            .set({ sort: i, updated_at: Date.now() })
            .where('id', '=', rid)
            .where('project_id', '=', project.id)
            .execute();
        }
      });
      return { error: 0, data: { sorted: routes.length } };
    },
  );

  app.post(
    '/api/admin/route/:project/:id/bind',
    {
      schema: {
        tags,
        params: routeParams,
        body: obj({ programs: { type: 'array', items: str(64, { minLength: 1 }), maxItems: 500 } }),
        response: { 200: ok(routeSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      const route = await findRoute(db, project.id, (request.params as { id: string }).id);
      const { programs } = request.body as { programs: string[] };
      if (NO_PROGRAMS.includes(route.type) && programs.length > 0) fail(E.ROUTE_NO_PROGRAMS);
      const next = { ...route, programs: JSON.stringify([...new Set(programs)]), updated_at: Date.now() };
      await db
        .updateTable('routes')
        .set({ programs: next.programs, updated_at: next.updated_at })
        .where('id', '=', route.id)
        .where('project_id', '=', project.id)
        .execute();
      return { error: 0, data: publicRoute(next) };
    },
  );

  app.get(
    '/api/admin/route/:project/:id/remove',
    {
      schema: { tags, params: routeParams, response: { 200: ok(obj({ removed: bool() })) } },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      const route = await findRoute(db, project.id, (request.params as { id: string }).id);
      // Only the menu entry goes: its tables, datasets and functions stay; its entries move up.
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('routes')
          .set({ parent_id: route.parent_id })
          .where('project_id', '=', project.id)
          .where('parent_id', '=', route.id)
          .execute();
        await trx
          .deleteFrom('routes')
          .where('id', '=', route.id)
          .where('project_id', '=', project.id)
          .execute();
      });
      return { error: 0, data: { removed: true } };
    },
  );

  app.get(
    '/api/app/rt/:project/list',
    {
      schema: { tags, params: projectParams, response: { 200: ok({ type: 'array', items: anyObj() }) } },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, actor } = await authorize(request, (request.params as { project: string }).project, {
        kind: 'app',
      });
      const all = await listRoutes(db, project.id);
      const tree = nest(all, (r) => decide(actor, project, { kind: 'route', id: r.id }, 'read').allow);
      return { error: 0, data: tree };
    },
  );
}
