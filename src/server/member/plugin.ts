/** Members and invitations: /api/admin/user/{project}/…, and joining by invitation. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
  findUserById,
  findUserByLogin,
  publicUser,
  revokeUserSessions,
  setPassword,
} from '../account/service.ts';
import { forgetSessionsAfterWrites } from '../account/session-cache.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { bool, id, int, obj, ok, projectParams, str, userSchema } from '../http/schemas.ts';
import { assertMemberQuota, findProject, type ProjectRow } from '../project/service.ts';
import {
  addMember,
  changeRole,
  countMembers,
  createInvitation,
  createSubUser,
  findInvitation,
  findMember,
  isMember,
  isSubUser,
  listInvitations,
  listMembers,
  MEMBER_PAGE_MAX,
  memberQuota,
  pageMembers,
  publicInvitation,
  publicMember,
  removeMember,
  renameUser,
  setInvitationStatus,
  setMemberStatus,
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

const tags = ['member'];

/**
 * Members under /api/admin/user, and joining by invitation. Membership, role and session changes here
 * (bans, removals, demotions, child tokens, joins) must reach cached sessions: they are cleared once
 * the change is committed and answered.
 */
async function memberPlugin(app: FastifyInstance): Promise<void> {
  forgetSessionsAfterWrites(app);
  await app.register(memberRoutes, { prefix: '/api/admin/user' });
  await app.register(joinRoutes, { prefix: '/api/common/project' });
}

async function memberRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const base = '/:project';

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
        // `list` picks members by id; otherwise `text` searches (nickname, account, phone) and
        // `page`/`pageSize` page the answer in SQL (without `page`, every match is answered).
        body: obj({
          'list?': { type: 'array', items: id(), maxItems: 1000 },
          'text?': str(64),
          'page?': { type: 'integer', minimum: 1, maximum: 1_000_000 },
          'pageSize?': { type: 'integer', minimum: 1, maximum: MEMBER_PAGE_MAX },
        }),
        response: {
          200: ok(
            obj({
              list: { type: 'array', items: memberSchema },
              size: int(),
              'total?': int(),
              quota: { type: ['integer', 'null'] },
            }),
          ),
        },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = await admin(request);
      const body = (request.body ?? {}) as {
        list?: string[];
        text?: string;
        page?: number;
        pageSize?: number;
      };
      const size = await countMembers(db, project.id);
      const quota = memberQuota(project);
      if (body.list) {
        const rows = await listMembers(db, project.id, body.list);
        return { error: 0, data: { list: rows.map((m) => publicMember(m, project)), size, quota } };
      }
      const pageSize = body.pageSize ?? (body.page ? 20 : MEMBER_PAGE_MAX * 1000);
      const { rows, total } = await pageMembers(db, project.id, {
        text: body.text,
        page: body.page ?? 1,
        pageSize,
      });
      return {
        error: 0,
        data: { list: rows.map((m) => publicMember(m, project)), size, total, quota },
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
      const user = await createSubUser(db, project, role, { account, phone, nickname: name, pwd: b.pwd });
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
      if (await isMember(db, project.id, user.id)) fail(E.MEMBER_EXISTS);
      await assertMemberQuota(db, project);
      await addMember(db, project.id, user.id, role);
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
    await setMemberStatus(db, project, member, 'disabled');
    await revokeUserSessions(db, member.user_id);
    await app.realtime.closeUserConnections(member.user_id);
    return { error: 0, data: await view(project, member.user_id) };
  });

  app.get(`${base}/:id/active`, { schema: statusSchema, preHandler: requireUser }, async (request) => {
    const { project, member } = await target(request);
    await setMemberStatus(db, project, member, 'active');
    return { error: 0, data: await view(project, member.user_id) };
  });

  app.get(
    `${base}/:id/remove`,
    {
      schema: { tags, params: memberParams, response: { 200: ok(obj({ removed: bool() })) } },
      preHandler: requireUser,
    },
    async (request) => {
      const { project, member } = await target(request);
      await removeMember(db, project.id, member.user_id);
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
      if (role) await changeRole(db, project.id, member.user_id, role);
      if (name !== undefined) await renameUser(db, member.user_id, name);
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
      const row = await createInvitation(db, project.id, role?.id ?? null, b.days ?? 7, me.id);
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
      const rows = await listInvitations(db, project.id);
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
        const next = await setInvitationStatus(
          db,
          project.id,
          inviteId,
          status === 'open' ? 'open' : 'closed',
        );
        return { error: 0, data: publicInvitation(next) };
      },
    );
  }
}

async function joinRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  app.post(
    '/join',
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
      const invite = await findInvitation(db, b.code !== undefined ? { code: b.code } : { link: b.link! });
      if (invite?.status !== 'open' || invite.expires_at <= Date.now()) fail(E.INVITE_INVALID);
      const project = await findProject(db, invite.project_id);
      if (!project) fail(E.INVITE_INVALID);
      if (await isMember(db, project.id, me.id)) fail(E.MEMBER_EXISTS);
      await assertMemberQuota(db, project);
      const role = invite.role_id ? await findRole(db, project.id, invite.role_id).catch(() => null) : null;
      await addMember(db, project.id, me.id, role);
      return { error: 0, data: { project: project.id, role: role?.id ?? null } };
    },
  );
}

export default area('lc-member', memberPlugin);
