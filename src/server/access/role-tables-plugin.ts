/**
 * A role's advanced settings per data table (builders; /system/auth popups):
 * GET  /api/admin/auth/{project}/main/role/{id}/table/{entity}           → { entity, filter, programs }
 * POST /api/admin/auth/{project}/main/role/{id}/table/{entity}/programs  { programs: [id…] | null }
 * The default filter is written with POST /api/admin/view/{project}/{entity}/role-filter (data views).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireUser } from '../account/auth.ts';
import { loadMeta } from '../data/meta.ts';
import { roleFilter } from '../data/view-service.ts';
import { area } from '../http/plugin-kit.ts';
import { anyObj, id, obj, ok } from '../http/schemas.ts';
import { authorize } from './decide.ts';
import { ROLE_PROGRAMS_MAX, rolePrograms, setRolePrograms } from './role-tables.ts';
import { findRole } from './roles.ts';

const params = obj({ project: id(), id: id(), entity: { type: 'string', minLength: 1, maxLength: 64 } });
const tags = ['access'];

async function roleTablesPlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const T = '/api/admin/auth/:project/main/role/:id/table/:entity';

  const target = async (request: FastifyRequest) => {
    const p = request.params as { project: string; id: string; entity: string };
    const { project } = await authorize(request, p.project, { kind: 'admin' });
    const role = await findRole(db, project.id, p.id);
    const meta = await loadMeta(db, project.id, p.entity);
    return { project, role, meta };
  };

  app.get(
    T,
    { schema: { tags, params, response: { 200: ok(anyObj()) } }, preHandler: requireUser },
    async (request) => {
      const { project, role, meta } = await target(request);
      const filter = await roleFilter(db, project.id, meta, role.id);
      return {
        error: 0,
        data: {
          entity: meta.entity.id,
          role: role.id,
          // A stored filter that no longer fits the table's fields is shown as none (it matches nothing).
          filter: filter === 'unusable' ? null : filter,
          unusable: filter === 'unusable',
          programs: await rolePrograms(db, project.id, role.id, meta.entity.id),
        },
      };
    },
  );

  app.post(
    `${T}/programs`,
    {
      schema: {
        tags,
        params,
        body: obj({
          programs: {
            type: ['array', 'null'],
            items: { type: 'string', pattern: '^[0-9a-f]{24}$' },
            maxItems: ROLE_PROGRAMS_MAX,
          },
        }),
        response: { 200: ok(anyObj()) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project, role, meta } = await target(request);
      const { programs } = request.body as { programs: string[] | null };
      const saved = await setRolePrograms(
        db,
        project.id,
        role.id,
        meta.entity.id,
        programs,
        request.user?.id ?? null,
      );
      return { error: 0, data: { entity: meta.entity.id, role: role.id, programs: saved } };
    },
  );
}

export default area('lc-role-tables', roleTablesPlugin);
