/**
 * Role options acted on: `/api/common/project/{p}/roles/open` (roles the caller may register into,
 * switch to or apply for), `…/role/switch {role}` (enable), `…/role/apply {role, note?}` (apply), and
 * the managers' side `/api/admin/user/{p}/apply/list`, `…/apply/{id}/approve|reject`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { caller, requireUser } from '../account/auth.ts';
import { sessionsChanged } from '../account/session-cache.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { bool, id, int, obj, ok, projectParams, str } from '../http/schemas.ts';
import { revokeChildTokensOpenedBy } from '../member/service.ts';
import { findProject, membership } from '../project/service.ts';
import { authorize } from './decide.ts';
import { optionalUser } from './guard.ts';
import { apply, decideApplication, listApplications, listOpenRoles, openRole } from './role-join.ts';

const openRoleSchema = obj({
  _id: str(),
  name: str(),
  type: str(),
  options: obj({ apply: bool(), enable: bool(), reg: bool() }),
});
const applicationSchema = obj({
  _id: str(),
  user: str(),
  account: { type: ['string', 'null'] },
  nickname: str(),
  role: str(),
  roleName: str(),
  status: str(),
  note: str(),
  createdAt: int(),
  decidedAt: { type: ['integer', 'null'] },
});
const nullable = (s: Record<string, unknown>) => ({ anyOf: [s, { type: 'null' }] });

async function roleJoinPlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const tags = ['access'];
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'POST' || /\/(approve|reject)$/.test(request.url.split('?')[0]!)) {
      if (reply.statusCode === 200) sessionsChanged();
    }
  });

  async function project(request: FastifyRequest) {
    const p = await findProject(db, (request.params as { project: string }).project);
    if (!p) fail(E.PROJECT_NOT_FOUND);
    return p;
  }

  app.get(
    '/api/common/project/:project/roles/open',
    {
      schema: {
        tags,
        params: projectParams,
        response: {
          200: ok(
            obj({
              roles: { type: 'array', items: openRoleSchema },
              member: bool(),
              pending: nullable(str()),
            }),
          ),
        },
      },
      preHandler: optionalUser,
    },
    async (request) => {
      const p = await project(request);
      const user = request.user ?? null;
      const m = user ? await membership(db, p.id, user.id) : undefined;
      if (m && m.status !== 'active') fail(E.BANNED, 'banned in this project');
      const who = !user ? 'anon' : m ? 'member' : 'user';
      const pending = user
        ? await db
            .selectFrom('role_applications')
            .select('role_id')
            .where('project_id', '=', p.id)
            .where('user_id', '=', user.id)
            .where('status', '=', 'pending')
            .executeTakeFirst()
        : undefined;
      return {
        error: 0,
        data: { roles: await listOpenRoles(db, p.id, who), member: !!m, pending: pending?.role_id ?? null },
      };
    },
  );

  app.post(
    '/api/common/project/:project/role/switch',
    {
      schema: {
        tags,
        params: projectParams,
        body: obj({ role: id() }),
        response: { 200: ok(obj({ role: str() })) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const me = caller(request);
      if (request.session?.kind === 'child') fail(E.FORBIDDEN, 'a child token cannot change roles');
      const { project: p, actor } = await authorize(
        request,
        (request.params as { project: string }).project,
        {
          kind: 'app',
        },
      );
      if (actor.kind === 'public') fail(E.NOT_MEMBER);
      if (actor.kind === 'owner') fail(E.OWNER_PROTECTED);
      const role = await openRole(db, p.id, (request.body as { role: string }).role, 'enable');
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('project_members')
          .set({ role_id: role.id, role_type: 'common' })
          .where('project_id', '=', p.id)
          .where('user_id', '=', me.id)
          .execute();
        // An admin who switches to a common role loses the child tokens they opened here.
        if (actor.kind === 'admin') await revokeChildTokensOpenedBy(trx, me.id, p.id);
      });
      return { error: 0, data: { role: role.id } };
    },
  );

  app.post(
    '/api/common/project/:project/role/apply',
    {
      schema: {
        tags,
        params: projectParams,
        body: obj({ role: id(), 'note?': str(200) }),
        response: { 200: ok(obj({ _id: str(), role: str(), status: str() })) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const me = caller(request);
      if (request.session?.kind === 'child') fail(E.FORBIDDEN, 'a child token cannot apply');
      const p = await project(request);
      const m = await membership(db, p.id, me.id);
      if (m && m.status !== 'active') fail(E.BANNED, 'banned in this project');
      if (m?.role_type === 'owner') fail(E.OWNER_PROTECTED);
      const b = request.body as { role: string; note?: string };
      const role = await openRole(db, p.id, b.role, 'apply');
      if (m?.role_id === role.id) fail(E.MEMBER_EXISTS, 'already in this role');
      const row = await apply(db, p.id, me.id, role, (b.note ?? '').trim());
      return { error: 0, data: { _id: row.id, role: row.role_id, status: row.status } };
    },
  );

  const base = '/api/admin/user/:project/apply';
  app.get(
    `${base}/list`,
    {
      schema: {
        tags,
        params: projectParams,
        querystring: obj({ 'status?': { type: 'string', enum: ['pending', 'approved', 'rejected'] } }),
        response: { 200: ok({ type: 'array', items: applicationSchema }) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project: p } = await authorize(request, (request.params as { project: string }).project, {
        kind: 'admin',
      });
      const { status } = request.query as { status?: 'pending' | 'approved' | 'rejected' };
      return { error: 0, data: await listApplications(db, p.id, status) };
    },
  );

  for (const verdict of ['approve', 'reject'] as const) {
    app.get(
      `${base}/:id/${verdict}`,
      {
        schema: {
          tags,
          params: obj({ project: id(), id: id() }),
          response: { 200: ok(obj({ status: str() })) },
        },
        preHandler: requireUser,
      },
      async (request) => {
        const params = request.params as { project: string; id: string };
        const { project: p } = await authorize(request, params.project, { kind: 'admin' });
        await decideApplication(db, p, params.id, verdict === 'approve', caller(request).id);
        return { error: 0, data: { status: verdict === 'approve' ? 'approved' : 'rejected' } };
      },
    );
  }
}

export default area('lc-role-join', roleJoinPlugin);
