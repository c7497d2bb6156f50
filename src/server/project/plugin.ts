import type { FastifyInstance } from 'fastify';
import { authorize, decide, projectAccess } from '../access/decide.ts';
import { optionalUser } from '../access/guard.ts';
import { caller, requireUser } from '../account/auth.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, bool, id, obj, ok, projectParams, projectSchema, str } from '../http/schemas.ts';
import { findMeta } from '../page/service.ts';
import {
  type CustomConfig,
  createProject,
  findProject,
  listProjects,
  parseJson,
  projectOptions,
  publicProject,
  setCustom,
} from './service.ts';

const customSchema = obj({
  'logo?': str(2048),
  'name?': str(128),
  'config?': obj({
    'weixinLogin?': bool(),
    'weixinAppid?': str(64),
    'weixinAppType?': str(32),
    'wxworkLoginUrl?': str(2048),
  }),
  'view?': obj({ 'pc?': anyObj(), 'mobile?': anyObj() }),
  'code?': str(200_000),
  'reg?': obj({ 'enable?': bool(), 'role?': { anyOf: [id(), { type: 'null' }] } }),
});

/** Branding everyone may read before signing in (no setup code: that comes with app init). */
function publicCustom(c: CustomConfig) {
  return {
    logo: c.logo ?? '',
    name: c.name ?? '',
    config: c.config ?? {},
    view: c.view ?? {},
    reg: { enable: c.reg?.enable === true },
  };
}

const initSchema = obj({
  project: projectSchema,
  custom: anyObj(),
  option: obj({ accuracy: { type: 'integer' } }),
  page: { anyOf: [obj({ _id: str(), name: str() }), { type: 'null' }] },
});

/** Projects: /api/common/project (create, list, branding), /api/admin/project, /api/common/app (init). */
async function projectPlugin(app: FastifyInstance): Promise<void> {
  await app.register(accountRoutes, { prefix: '/api/common/project' });
  await app.register(adminRoutes, { prefix: '/api/admin/project' });
  await app.register(appRoutes, { prefix: '/api/common/app' });
}

/** The signed-in user's projects, and the branding anyone may read. */
async function accountRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.database;

  app.post(
    '/create',
    {
      schema: {
        tags: ['project'],
        body: obj({ name: str(128, { minLength: 1 }) }),
        response: { 200: ok(projectSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { name } = request.body as { name: string };
      if (!name.trim()) fail(E.INVALID_FIELD, 'name: cannot be empty');
      const p = await createProject(db, caller(request).id, name.trim());
      return { error: 0, data: publicProject(p, 'owner') };
    },
  );

  app.get(
    '/list',
    {
      schema: { tags: ['project'], response: { 200: ok({ type: 'array', items: projectSchema }) } },
      preHandler: requireUser,
    },
    async (request) => ({ error: 0, data: await listProjects(db, caller(request).id) }),
  );

  app.get(
    '/custom/:custom',
    { schema: { tags: ['project'], params: obj({ custom: id() }), response: { 200: ok(anyObj()) } } },
    async (request) => {
      const { custom } = request.params as { custom: string };
      const project = await findProject(db, custom);
      if (!project) fail(E.PROJECT_NOT_FOUND);
      return { error: 0, data: publicCustom(parseJson<CustomConfig>(project.custom, {})) };
    },
  );
}

async function adminRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.database;

  app.get(
    '/:project',
    {
      schema: {
        tags: ['project'],
        params: projectParams,
        querystring: obj({ 'mode?': { type: 'string', enum: ['dev', 'app'] } }),
        response: { 200: ok(obj({ project: projectSchema, custom: anyObj(), option: anyObj() })) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project: pid } = request.params as { project: string };
      const { mode } = request.query as { mode?: 'dev' | 'app' };
      const { project, role } = await projectAccess(request, pid, { admin: true, dev: mode !== 'app' });
      return {
        error: 0,
        data: {
          project: publicProject(project, role),
          custom: parseJson<CustomConfig>(project.custom, {}),
          option: projectOptions(project),
        },
      };
    },
  );

  app.post(
    '/:project/custom/set',
    {
      schema: {
        tags: ['project'],
        params: projectParams,
        body: customSchema,
        response: { 200: ok(anyObj()) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project: pid } = request.params as { project: string };
      const { project } = await projectAccess(request, pid, { admin: true });
      const next: CustomConfig = {
        ...parseJson<CustomConfig>(project.custom, {}),
        ...(request.body as CustomConfig),
      };
      await setCustom(db, project.id, next);
      return { error: 0, data: next };
    },
  );
}

/** What the end-user app loads first. */
async function appRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.database;

  async function appInit(projectId: string, pageId: string | null, request: Parameters<typeof caller>[0]) {
    const { project, actor } = await authorize(request, projectId, { kind: 'app' });
    let page: { _id: string; name: string } | null = null;
    if (pageId) {
      const row = await findMeta(db, project.id, pageId);
      if (!row) fail(E.PAGE_NOT_FOUND);
      const d = decide(actor, project, { kind: 'page', id: row.id }, 'read');
      if (!d.allow) fail(d.error, d.reason);
      page = { _id: row.id, name: row.name };
    }
    return {
      error: 0,
      data: {
        project: publicProject(project, actor.kind),
        custom: parseJson<CustomConfig>(project.custom, {}),
        option: projectOptions(project),
        page,
      },
    };
  }

  app.get(
    '/:project/init',
    {
      schema: { tags: ['project'], params: projectParams, response: { 200: ok(initSchema) } },
      preHandler: optionalUser,
    },
    async (request) => appInit((request.params as { project: string }).project, null, request),
  );

  app.get(
    '/:project/:page/init',
    {
      schema: {
        tags: ['project'],
        params: obj({ project: id(), page: id() }),
        response: { 200: ok(initSchema) },
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const { project, page } = request.params as { project: string; page: string };
      return appInit(project, page, request);
    },
  );
}

export default area('lc-project', projectPlugin);
