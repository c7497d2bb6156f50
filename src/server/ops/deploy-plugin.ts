/** GET /api/admin/project/:project/deploy: how this installation runs (builders of the project only). */
import type { FastifyInstance } from 'fastify';
import { projectAccess } from '../access/decide.ts';
import { requireUser } from '../account/auth.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, ok, projectParams } from '../http/schemas.ts';
import { deployInfo } from './deploy.ts';

async function deployPlugin(app: FastifyInstance): Promise<void> {
  app.get(
    '/api/admin/project/:project/deploy',
    {
      schema: {
        tags: ['project'],
        params: projectParams,
        response: { 200: ok(anyObj()) },
        description:
          'The installation as /system/deploy shows it: database kind, version and place (URLs without ' +
          'passwords), Redis, server version, this process (pid, uptime, memory) and the environment settings ' +
          'to move to PostgreSQL + Redis. Owners and administrators of the project only.',
      },
      preHandler: requireUser,
    },
    async (request) => {
      await projectAccess(request, (request.params as { project: string }).project, {
        admin: true,
        dev: false,
      });
      return { error: 0, data: await deployInfo(app.config, app.database) };
    },
  );
}

export default area('lc-deploy', deployPlugin);
