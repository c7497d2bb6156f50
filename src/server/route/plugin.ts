/** Menus: builder calls under /api/admin/route/{project}/…, the end-user list at /api/app/rt/{project}/list. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authorize, decide } from '../access/decide.ts';
import { optionalUser } from '../access/guard.ts';
import { actorProgramLimits, tableIds } from '../access/role-tables.ts';
import { requireUser } from '../account/auth.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, bool, id, int, obj, ok, projectParams, str } from '../http/schemas.ts';
import {
  bindPrograms,
  createRoute,
  findRoute,
  listRoutes,
  nest,
  publicRoute,
  ROUTE_TYPES,
  type RouteInput,
  type RouteRow,
  removeRoute,
  sortRoutes,
  updateRoute,
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
const tags = ['route'];

async function routePlugin(app: FastifyInstance): Promise<void> {
  await app.register(builderRoutes, { prefix: '/api/admin/route' });
  await app.register(appRoutes, { prefix: '/api/app/rt' });
}

async function builderRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const admin = (request: FastifyRequest) =>
    authorize(request, (request.params as { project: string }).project, { kind: 'admin' });
  /** The entry named in the path, in the project the caller manages. */
  const route = async (request: FastifyRequest) => {
    const { project } = await admin(request);
    return findRoute(db, project.id, (request.params as { id: string }).id);
  };

  app.get(
    '/:project/list',
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
    '/:project/create',
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
      const input = request.body as RouteInput & { type: RouteRow['type']; name: string };
      return { error: 0, data: publicRoute(await createRoute(db, project.id, input)) };
    },
  );

  app.post(
    '/:project/:id/update',
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
      const next = await updateRoute(db, await route(request), request.body as RouteInput);
      return { error: 0, data: publicRoute(next) };
    },
  );

  app.post(
    '/:project/sort',
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
      await sortRoutes(db, project.id, routes);
      return { error: 0, data: { sorted: routes.length } };
    },
  );

  app.post(
    '/:project/:id/bind',
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
      const { programs } = request.body as { programs: string[] };
      return { error: 0, data: publicRoute(await bindPrograms(db, await route(request), programs)) };
    },
  );

  app.get(
    '/:project/:id/remove',
    {
      schema: { tags, params: routeParams, response: { 200: ok(obj({ removed: bool() })) } },
      preHandler: requireUser,
    },
    async (request) => {
      await removeRoute(db, await route(request));
      return { error: 0, data: { removed: true } };
    },
  );
}

async function appRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  app.get(
    '/:project/list',
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
      // A list entry shows only the programs the role may run on its table (role-tables.ts).
      const limits = await actorProgramLimits(db, project.id, actor);
      if (limits.size) limitPrograms(tree, limits, await tableIds(db, project.id));
      // A list entry naming a dataset says so (`_dataset`): the client opens the dataset's view
      // at once instead of first asking for a table of that id.
      const datasets = await db
        .selectFrom('flows')
        .select('id')
        .where('project_id', '=', project.id)
        .where('type', '=', 'dataset')
        .execute();
      if (datasets.length) markDatasets(tree, new Set(datasets.map((d) => d.id)));
      return { error: 0, data: tree };
    },
  );
}

type MenuNode = { _type: string; _value: string | null; _program: string[]; _children: MenuNode[] };

function limitPrograms(nodes: MenuNode[], limits: Map<string, string[]>, ids: Map<string, string>): void {
  for (const n of nodes) {
    const table = n._type === 'table' && n._value ? ids.get(n._value) : undefined;
    const allowed = table ? limits.get(table) : undefined;
    if (allowed) n._program = n._program.filter((p) => allowed.includes(p));
    limitPrograms(n._children, limits, ids);
  }
}

function markDatasets(nodes: (MenuNode & { _dataset?: boolean })[], ids: Set<string>): void {
  for (const n of nodes) {
    if (n._type === 'table' && n._value && ids.has(n._value)) n._dataset = true;
    markDatasets(n._children, ids);
  }
}

export default area('lc-route', routePlugin);
