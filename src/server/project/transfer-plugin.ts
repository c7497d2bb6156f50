import type { FastifyInstance, FastifyRequest } from 'fastify';
import { projectAccess } from '../access/decide.ts';
import { requireUser } from '../account/auth.ts';
import { sessionsChanged } from '../account/session-cache.ts';
import { loadMeta } from '../data/meta.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, bool, int, obj, ok, projectParams } from '../http/schemas.ts';
import { exportProject, importProject, projectUsage } from './transfer.ts';

/** A package with records can be large; its checks bound every list inside. */
export const PACKAGE_BODY_LIMIT = 32 * 1024 * 1024;

const tags = ['project'];
const summary = ok(
  obj({
    modules: int(),
    entities: int(),
    fields: int(),
    pages: int(),
    routes: int(),
    roles: int(),
    flows: int(),
    share: int(),
    records: int(),
  }),
);

/**
 * Project export and import for builders (registered under /api/app/share/:project, the spec's base)
 * and the usage figures of /system/project (/api/admin/project/:project/usage).
 */
async function transferPlugin(app: FastifyInstance): Promise<void> {
  const { db, dialect } = app.database;
  app.addHook('preHandler', requireUser);
  // Reading (export, usage) stays open on an expired project; importing is a dev-mode change.
  const builder = async (request: FastifyRequest, dev = true) =>
    (await projectAccess(request, (request.params as { project: string }).project, { admin: true, dev }))
      .project;

  app.post(
    '/api/app/share/:project/exportProject',
    {
      schema: {
        tags,
        params: projectParams,
        body: obj({ 'records?': bool() }),
        response: { 200: ok(anyObj()) },
      },
    },
    async (request) => {
      const project = await builder(request);
      const { records } = request.body as { records?: boolean };
      return { error: 0, data: await exportProject(db, project.id, { records }) };
    },
  );

  for (const [path, replace] of [
    ['importProject', false],
    ['importReplaceProject', true],
  ] as const) {
    app.post(
      `/api/app/share/:project/${path}`,
      {
        bodyLimit: PACKAGE_BODY_LIMIT,
        schema: { tags, params: projectParams, body: obj({ package: anyObj() }), response: { 200: summary } },
      },
      async (request) => {
        const project = await builder(request);
        const body = request.body as { package: unknown };
        const data = await importProject(db, dialect, project.id, request.user!.id, body.package, {
          replace,
          // A builder index comes back as it was made in /system/data/{entity}: built and pinned.
          buildIndex: async (entityId, fields) => {
            const meta = await loadMeta(db, project.id, entityId).catch(() => null);
            if (!meta) return;
            const made = await app.autoIndex.create(meta, fields);
            if (made === 'fields' || made === 'limit')
              request.log.warn({ entityId, fields, made }, 'imported index not rebuilt');
          },
        });
        // Roles may have changed under signed-in members.
        sessionsChanged();
        return { error: 0, data };
      },
    );
  }

  app.get(
    '/api/admin/project/:project/usage',
    { schema: { tags, params: projectParams, response: { 200: ok(anyObj()) } } },
    async (request) => {
      const project = await builder(request);
      return { error: 0, data: await projectUsage(db, project.id) };
    },
  );
}

export default area('lc-project-transfer', transferPlugin);
