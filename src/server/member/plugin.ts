/** Members and invitations: /api/admin/user/{project}/…, and joining by invitation. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { newId } from '../../shared/id.ts';
import {
  checkAccount,
  checkNickname,
  checkPassword,
  checkPhone,
  message,
  type RuleResult,
} from '../../shared/validation.ts';
import { authorize, decide } from '../access/decide.ts';
import { assignableRole, findRole } from '../access/roles.ts';
import { caller, requireUser } from '../account/auth.ts';
import {
  createSession,
  createUser,
  findUserById,
  findUserByLogin,
  publicUser,
  revokeUserSessions,
  setPassword,
} from '../account/service.ts';
import { sessionsChanged } from '../account/session-cache.ts';
import { newToken } from '../account/tokens.ts';
import { E, fail } from '../errors.ts';
import { bool, id, int, obj, ok, projectParams, str, userSchema } from '../http/schemas.ts';
import { assertMemberQuota, findProject, type ProjectRow } from '../project/service.ts';
import {
  findMember,
  isSubUser,
  listMembers,
  type MemberView,
  memberQuota,
  newInviteCode,
  publicInvitation,
  publicMember,
  revokeChildTokensOpenedBy,
} from './service.ts';

function rule(field: string, result: RuleResult): void {
  if (result) fail(E.INVALID_FIELD, `${field}: ${message(result)}`);
}

const memberSchema = obj({
  _id: str(),
  account: { type: ['string', 'null'] },
  nickname: str(),
  name: str(),
  phone: { type: ['string', 'null'] },
  status: str(),
  role: { type: ['string', 'null'] },
  roleType: str(),
  owner: { type: ['string', 'null'] },
  sub: bool(),
  createdAt: int(),
});
const inviteSchema = obj({
  _id: str(),
  code: str(),
  link: str(),
  role: { type: ['string', 'null'] },
  status: str(),
  valid: bool(),
  expiresAt: int(),
  createdAt: int(),
});
const memberParams = obj({ project: id(), id: id() });
const optionalPhone = { anyOf: [str(32), { type: 'null' }] };

export default async function memberPlugin(app: FastifyInstance): Promise<void> {
  // Membership, role and session changes here (bans, removals, demotions, child tokens) must
  // reach cached sessions; clear them once the change is committed and answered.
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode === 200 && !/\/(list|children)$/.test(request.url.split('?')[0]!)) sessionsChanged();
  });
  const { db } = app.database;
  const tags = ['member'];
  const base = '/api/admin/user/:project';

  const admin = (request: FastifyRequest) =>
    authorize(request, (request.params as { project: string }).project, { kind: 'admin' });

  /** The management area, then the member named in the path, then may this actor change them. */
  async function target(request: FastifyRequest) {
    const { project, actor } = await admin(request);
    const member = await findMember(db, project.id, (request.params as { id: string }).id);
    const d = decide(actor, project, { kind: 'member', target: member.role_type }, 'write');
    if (!d.allow) fail(d.error, d.reason);
    return { project, actor, member };
  }

  const view = async (project: ProjectRow, userId: string) =>
    publicMember(await findMember(db, project.id, userId), project);

  app.post(
    `${base}/list`,
    {
      schema: {
        tags,
        params: projectParams,
        body: obj({ 'list?': { type: 'array', items: id(), maxItems: 1000 } }),
        response: {
          200: ok(
            obj({
              list: { type: 'array', items: memberSchema },
              size: int(),
              quota: { type: ['integer', 'null'] },
            }),
          ),
        },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      const { list } = (request.body ?? {}) as { list?: string[] };
      const rows = await listMembers(db, project.id, list);
      const size = list ? (await listMembers(db, project.id)).length : rows.length;
      return {
        error: 0,
        data: { list: rows.map((m) => publicMember(m, project)), size, quota: memberQuota(project) },
      };
    },
  );

  app.get(
    `${base}/children`,
    {
      schema: { tags, params: projectParams, response: { 200: ok({ type: 'array', items: memberSchema }) } },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      const rows = (await listMembers(db, project.id)).filter((m) => isSubUser(m, project));
      return { error: 0, data: rows.map((m) => publicMember(m, project)) };
    },
  );

  app.post(
    `${base}/create`,
    {
      schema: {
        tags,
        params: projectParams,
        body: obj({ role: id(), account: str(64), pwd: str(64), name: str(64), 'phone?': optionalPhone }),
        response: { 200: ok(memberSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      const b = request.body as {
        role: string;
        account: string;
        pwd: string;
        name: string;
        phone?: string | null;
      };
      const role = await assignableRole(db, project.id, b.role);
      const account = b.account.trim();
      const name = b.name.trim();
      const phone = b.phone?.trim() || null;
      rule('account', checkAccount(account));
      rule('pwd', checkPassword(b.pwd));
      rule('name', checkNickname(name));
      if (phone) rule('phone', checkPhone(phone));
      await assertMemberQuota(db, project);
      if (await findUserByLogin(db, account)) fail(E.ACCOUNT_TAKEN);
      if (phone && (await findUserByLogin(db, phone))) fail(E.PHONE_TAKEN);
      // Sub-users belong to the project owner, whoever of the managers created them.
      const user = await db.transaction().execute(async (trx) => {
        const u = await createUser(trx, {
          account,
          phone,
          nickname: name,
          pwd: b.pwd,
          parentId: project.owner_id,
        });
        await trx
          .insertInto('project_members')
          .values({
            project_id: project.id,
            user_id: u.id,
            role_type: role.type === 'admin' ? 'admin' : 'common',
            role_id: role.id,
            status: 'active',
            created_at: Date.now(),
          })
          .execute();
        return u;
      });
      return { error: 0, data: await view(project, user.id) };
    },
  );

  app.post(
    `${base}/bind`,
    {
      schema: {
        tags,
        params: projectParams,
        body: obj({ role: id(), 'account?': str(64), 'phone?': str(32) }),
        response: { 200: ok(memberSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      const b = request.body as { role: string; account?: string; phone?: string };
      const role = await assignableRole(db, project.id, b.role);
      const login = (b.account ?? b.phone ?? '').trim();
      if (!login) fail(E.INVALID_FIELD, 'account or phone: cannot be empty');
      const user = await findUserByLogin(db, login);
      if (!user) fail(E.USER_NOT_FOUND);
      const existing = await db
        .selectFrom('project_members')
        .select('user_id')
        .where('project_id', '=', project.id)
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (existing) fail(E.MEMBER_EXISTS);
      await assertMemberQuota(db, project);
      await db
        .insertInto('project_members')
        .values({
          project_id: project.id,
          user_id: user.id,
          role_type: role.type === 'admin' ? 'admin' : 'common',
          role_id: role.id,
          status: 'active',
          created_at: Date.now(),
        })
        .execute();
      return { error: 0, data: await view(project, user.id) };
    },
  );

  const statusSchema = { tags, params: memberParams, response: { 200: ok(memberSchema) } };

  app.get(`${base}/:id/kick`, { schema: statusSchema, preHandler: requireUser }, async (request) => {
    const { project, member } = await target(request);
    await revokeUserSessions(db, member.user_id);
    await app.realtime.closeUserConnections(member.user_id);
    return { error: 0, data: publicMember(member, project) };
  });

  /**
   * Ban is per project: the membership is disabled (every call into this project is denied) and the
   * user's sessions end now. A sub-user, owned by the project owner, is disabled outright, so they
   * cannot sign in until unbanned.
   */
  app.get(`${base}/:id/ban`, { schema: statusSchema, preHandler: requireUser }, async (request) => {
    const { project, member } = await target(request);
    await setStatus(project, member, 'disabled');
    await revokeUserSessions(db, member.user_id);
    await app.realtime.closeUserConnections(member.user_id);
    return { error: 0, data: await view(project, member.user_id) };
  });

  app.get(`${base}/:id/active`, { schema: statusSchema, preHandler: requireUser }, async (request) => {
    const { project, member } = await target(request);
    await setStatus(project, member, 'active');
    return { error: 0, data: await view(project, member.user_id) };
  });

  async function setStatus(project: ProjectRow, member: MemberView, status: 'active' | 'disabled') {
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('project_members')
        .set({ status })
        .where('project_id', '=', project.id)
        .where('user_id', '=', member.user_id)
        .execute();
      if (isSubUser(member, project)) {
        await trx
          .updateTable('users')
          .set({ status, updated_at: Date.now() })
          .where('id', '=', member.user_id)
          .execute();
      }
    });
  }

  app.get(
    `${base}/:id/remove`,
    {
      schema: { tags, params: memberParams, response: { 200: ok(obj({ removed: bool() })) } },
      preHandler: requireUser,
    },
    async (request) => {
      const { project, member } = await target(request);
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('project_members')
          .where('project_id', '=', project.id)
          .where('user_id', '=', member.user_id)
          .execute();
        await revokeChildTokensOpenedBy(trx, member.user_id, project.id);
        // Child tokens acting as them in this project end with the membership.
        await trx
          .deleteFrom('sessions')
          .where('user_id', '=', member.user_id)
          .where('project_id', '=', project.id)
          .execute();
      });
      // Their live connections into this project end with the membership (4403); others stay.
      await app.realtime.closeMemberConnections(member.user_id, project.id);
      return { error: 0, data: { removed: true } };
    },
  );

  app.post(
    `${base}/:id/update`,
    {
      schema: {
        tags,
        params: memberParams,
        body: obj({ 'role?': id(), 'pwd?': str(64), 'name?': str(64) }),
        response: { 200: ok(memberSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project, member } = await target(request);
      const b = request.body as { role?: string; pwd?: string; name?: string };
      const role = b.role ? await assignableRole(db, project.id, b.role) : null;
      if ((b.pwd !== undefined || b.name !== undefined) && !isSubUser(member, project)) fail(E.NOT_SUB_USER);
      if (b.pwd !== undefined) rule('pwd', checkPassword(b.pwd));
      const name = b.name?.trim();
      if (name !== undefined) rule('name', checkNickname(name));
      if (role) {
        await db
          .updateTable('project_members')
          .set({ role_id: role.id, role_type: role.type === 'admin' ? 'admin' : 'common' })
          .where('project_id', '=', project.id)
          .where('user_id', '=', member.user_id)
          .execute();
        if (role.type !== 'admin') await revokeChildTokensOpenedBy(db, member.user_id, project.id);
      }
      if (name !== undefined) {
        await db
          .updateTable('users')
          .set({ nickname: name, updated_at: Date.now() })
          .where('id', '=', member.user_id)
          .execute();
      }
      // A reset password ends the sub-user's sessions (setPassword revokes them).
      if (b.pwd !== undefined) await setPassword(db, member.user_id, b.pwd);
      return { error: 0, data: await view(project, member.user_id) };
    },
  );

  app.get(
    `${base}/:id/token`,
    {
      schema: { tags, params: memberParams, response: { 200: ok(obj({ token: str(), user: userSchema })) } },
      preHandler: requireUser,
    },
    async (request) => {
      const { project, member } = await target(request);
      const session = request.session!;
      if (session.kind !== 'login') fail(E.FORBIDDEN, 'a child token cannot open another');
      if (!isSubUser(member, project)) fail(E.NOT_SUB_USER);
      if (member.status !== 'active' || member.user_status !== 'active') fail(E.BANNED);
      const token = await createSession(db, member.user_id, 'child', session.tokenHash, project.id);
      const user = (await findUserById(db, member.user_id))!;
      return { error: 0, data: { token, user: publicUser(user) } };
    },
  );

  // Invitations: a code and a link, valid until their time runs out or they are closed.
  app.post(
    `${base}/invite`,
    {
      schema: {
        tags,
        params: projectParams,
        body: obj({
          'role?': { anyOf: [id(), { type: 'null' }] },
          'days?': int({ minimum: 1, maximum: 365 }),
        }),
        response: { 200: ok(inviteSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      const me = caller(request);
      const b = request.body as { role?: string | null; days?: number };
      const role = b.role ? await assignableRole(db, project.id, b.role) : null;
      const now = Date.now();
      const row = {
        id: newId(now),
        project_id: project.id,
        code: newInviteCode(),
        link: newToken(),
        role_id: role?.id ?? null,
        status: 'open' as const,
        expires_at: now + (b.days ?? 7) * 86_400_000,
        created_by: me.id,
        created_at: now,
      };
      await db.insertInto('invitations').values(row).execute();
      return { error: 0, data: publicInvitation(row) };
    },
  );

  app.get(
    `${base}/invite/list`,
    {
      schema: { tags, params: projectParams, response: { 200: ok({ type: 'array', items: inviteSchema }) } },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      const rows = await db
        .selectFrom('invitations')
        .selectAll()
        .where('project_id', '=', project.id)
        .orderBy('created_at', 'desc')
        .execute();
      return { error: 0, data: rows.map((r) => publicInvitation(r)) };
    },
  );

  for (const status of ['open', 'close'] as const) {
    app.get(
      `${base}/invite/:id/${status}`,
      {
        schema: { tags, params: memberParams, response: { 200: ok(inviteSchema) } },
        preHandler: requireUser,
      },
      async (request) => {
        const { project } = await admin(request);
        const inviteId = (request.params as { id: string }).id;
        const found = await db
          .selectFrom('invitations')
          .selectAll()
          .where('id', '=', inviteId)
          .where('project_id', '=', project.id)
          .executeTakeFirst();
        if (!found) fail(E.NOT_FOUND, 'invitation');
        const next = { ...found, status: status === 'open' ? ('open' as const) : ('closed' as const) };
        await db.updateTable('invitations').set({ status: next.status }).where('id', '=', found.id).execute();
        return { error: 0, data: publicInvitation(next) };
      },
    );
  }

  app.post(
    '/api/common/project/join',
    {
      schema: {
        tags,
        body: obj({ 'code?': str(16, { minLength: 1 }), 'link?': str(64, { minLength: 1 }) }),
        response: { 200: ok(obj({ project: str(), role: { type: ['string', 'null'] } })) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const me = caller(request);
      const b = request.body as { code?: string; link?: string };
      if ((b.code === undefined) === (b.link === undefined))
        fail(E.INVALID_FIELD, 'give either code or link');
      const q = db.selectFrom('invitations').selectAll();
      const invite = await (b.code !== undefined
        ? q.where('code', '=', b.code.trim().toUpperCase())
        : q.where('link', '=', b.link!.trim())
      ).executeTakeFirst();
      if (invite?.status !== 'open' || invite.expires_at <= Date.now()) fail(E.INVITE_INVALID);
      const project = await findProject(db, invite.project_id);
      if (!project) fail(E.INVITE_INVALID);
      const existing = await db
        .selectFrom('project_members')
        .select('user_id')
        .where('project_id', '=', project.id)
        .where('user_id', '=', me.id)
        .executeTakeFirst();
      if (existing) fail(E.MEMBER_EXISTS);
      await assertMemberQuota(db, project);
      const role = invite.role_id ? await findRole(db, project.id, invite.role_id).catch(() => null) : null;
      await db
        .insertInto('project_members')
        .values({
          project_id: project.id,
          user_id: me.id,
          role_type: role?.type === 'admin' ? 'admin' : 'common',
          role_id: role?.id ?? null,
          status: 'active',
          created_at: Date.now(),
        })
        .execute();
      return { error: 0, data: { project: project.id, role: role?.id ?? null } };
    },
  );
}
