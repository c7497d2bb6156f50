import type { FastifyInstance, FastifyRequest } from 'fastify';
import { VERIFY_TYPES } from '../../shared/constants.ts';
import {
  checkAccount,
  checkCode,
  checkNewPassword,
  checkNickname,
  checkPassword,
  checkPhone,
  checkRequired,
  message,
  type RuleResult,
} from '../../shared/validation.ts';
import { standingIn } from '../access/standing.ts';
import { E, fail } from '../errors.ts';
import { requestToken } from '../http/envelope.ts';
import { area } from '../http/plugin-kit.ts';
import { bool, id, obj, ok, str, userSchema } from '../http/schemas.ts';
import { joinByRegistration } from '../project/service.ts';
import { caller, requireUser } from './auth.ts';
import { consumeCaptcha, consumeCode, createCaptcha, issueCode } from './codes.ts';
import { LoginGuard, LoginRefused } from './login-limits.ts';
import {
  createSession,
  dummyPasswordCheck,
  findUserById,
  findUserByLogin,
  checkPassword as passwordMatches,
  publicUser,
  registerUser,
  resolveToken,
  revokeSession,
  setPassword,
  type UserRow,
  updateUser,
  userChanged,
} from './service.ts';

/** Throw the field's rule message as a coded error naming the field. */
function rule(field: string, result: RuleResult): void {
  if (result) fail(E.INVALID_FIELD, `${field}: ${message(result)}`);
}

const loginBody = obj({ user: str(128), pwd: str(256), 'project?': id() });
const tokenAnswer = ok(obj({ token: str(), user: userSchema }));

function limitKey(request: FastifyRequest, part?: unknown): string {
  return typeof part === 'string' ? `${request.ip}|${part.slice(0, 64)}` : request.ip;
}
/** Accounts: /api/common/user (sign-in, registration, profile), /api/common/utils (captcha, codes). */
async function accountPlugin(app: FastifyInstance): Promise<void> {
  await app.register(userRoutes, { prefix: '/api/common/user' });
  await app.register(utilRoutes, { prefix: '/api/common/utils' });
  // Test mode only: what end-to-end tests may peek at.
  if (app.testHooks) await app.register(testRoutes, { prefix: '/api/test' });
}

async function userRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const limits = app.config.rateLimits;
  const guard = new LoginGuard(app.config.loginLimits);

  /** The user object with the role and standing in `project` when one is named (spec User entity). */
  async function withStanding(u: UserRow, project: string | null | undefined) {
    const base = publicUser(u);
    return project ? { ...base, ...(await standingIn(db, u.id, project)) } : base;
  }

  app.post(
    '/login',
    {
      schema: { tags: ['account'], body: loginBody, response: { 200: tokenAnswer } },
      config: {
        rateLimit: {
          max: limits.login,
          timeWindow: 60_000,
          // The key reads the body, which onRequest (the default) has not parsed yet: every name
          // from one address then shared a single counter.
          hook: 'preHandler',
          keyGenerator: (r: FastifyRequest) => limitKey(r, (r.body as { user?: unknown })?.user),
        },
      },
    },
    async (request, reply) => {
      const { user, pwd, project } = request.body as { user: string; pwd: string; project?: string };
      const login = user.trim();
      const byToken = login === 'token';
      try {
        guard.check(request.ip, byToken ? null : login);
      } catch (err) {
        if (err instanceof LoginRefused) reply.header('retry-after', String(err.retryAfter));
        throw err;
      }
      if (byToken) {
        // The password field carries a token: sign in with it as it is.
        const found = await resolveToken(db, pwd.trim());
        if (!found) {
          guard.failed(request.ip, null);
          fail(E.TOKEN_INVALID);
        }
        if (found.user.status !== 'active') fail(E.BANNED);
        const inProject = project ?? found.session.projectId;
        return { error: 0, data: { token: pwd.trim(), user: await withStanding(found.user, inProject) } };
      }
      rule('user', checkRequired(login));
      rule('pwd', checkRequired(pwd));
      const found = await findUserByLogin(db, login);
      if (!found) {
        await dummyPasswordCheck(pwd);
        guard.failed(request.ip, login);
        fail(E.LOGIN_FAILED);
      }
      if (!(await passwordMatches(found.pwd, pwd))) {
        guard.failed(request.ip, login);
        fail(E.LOGIN_FAILED);
      }
      guard.succeeded(login);
      if (found.status !== 'active') fail(E.BANNED);
      const token = await createSession(db, found.id);
      return { error: 0, data: { token, user: await withStanding(found, project ?? null) } };
    },
  );

  app.post(
    '/reg',
    {
      schema: {
        tags: ['account'],
        body: obj({
          user: str(64),
          pwd: str(64),
          phone: str(32),
          verify: str(16),
          nickname: str(64),
          'type?': str(32),
          'project?': { anyOf: [id(), { type: 'null' }, { const: '' }] },
          'role?': { anyOf: [id(), { type: 'null' }, { const: '' }] },
        }),
        response: { 200: ok(obj({ user: userSchema, project: { type: ['string', 'null'] } })) },
      },
    },
    async (request) => {
      const b = request.body as {
        user: string;
        pwd: string;
        phone: string;
        verify: string;
        nickname: string;
        project?: string | null;
        role?: string | null;
      };
      const account = b.user.trim();
      const nickname = b.nickname.trim();
      rule('user', checkAccount(account));
      rule('pwd', checkPassword(b.pwd));
      rule('phone', checkPhone(b.phone));
      rule('verify', checkCode(b.verify));
      rule('nickname', checkNickname(nickname));
      const taken = await findUserByLogin(db, account);
      if (taken) fail(E.ACCOUNT_TAKEN);
      if (await findUserByLogin(db, b.phone)) fail(E.PHONE_TAKEN);
      const project = b.project || null;
      if (project) await joinByRegistration(db, project, null, b.role || null, true);
      await consumeCode(db, b.phone, 'reg', b.verify);
      const created = await registerUser(
        db,
        { account, phone: b.phone, nickname, pwd: b.pwd },
        project
          ? (trx, userId) => joinByRegistration(trx, project, userId, b.role || null, false)
          : undefined,
      );
      return { error: 0, data: { user: publicUser(created), project } };
    },
  );

  app.get(
    '/userInfo',
    {
      schema: {
        tags: ['account'],
        querystring: obj({ 'project?': id() }),
        response: { 200: ok(userSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const { project } = request.query as { project?: string };
      // A child token acts in its one project: that is the project it answers for by default.
      const inProject = project ?? request.session?.projectId ?? null;
      return { error: 0, data: await withStanding(caller(request), inProject) };
    },
  );

  app.post(
    '/resetPwd',
    {
      schema: {
        tags: ['account'],
        body: obj({ pwd: str(64), phone: str(32), verify: str(16), 'type?': str(32) }),
        response: { 200: ok(obj({ reset: bool() })) },
      },
    },
    async (request) => {
      const b = request.body as { pwd: string; phone: string; verify: string };
      rule('pwd', checkPassword(b.pwd));
      rule('phone', checkPhone(b.phone));
      rule('verify', checkCode(b.verify));
      await consumeCode(db, b.phone, 'reset', b.verify);
      const user = await findUserByLogin(db, b.phone);
      // A code only reaches registered phones, so a right code implies a user; be safe anyway.
      if (!user || user.phone !== b.phone) fail(E.VERIFY_WRONG);
      await setPassword(db, user.id, b.pwd);
      return { error: 0, data: { reset: true } };
    },
  );

  app.post(
    '/update',
    {
      schema: {
        tags: ['account'],
        body: obj({ 'nickname?': str(64), 'avatar?': { type: ['string', 'null'], maxLength: 2048 } }),
        response: { 200: ok(userSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const me = caller(request);
      const b = request.body as { nickname?: string; avatar?: string | null };
      const patch: { nickname?: string; avatar?: string | null } = {};
      if (b.nickname !== undefined) {
        const nickname = b.nickname.trim();
        rule('nickname', checkNickname(nickname));
        patch.nickname = nickname;
      }
      if (b.avatar !== undefined) {
        if (b.avatar !== null && !/^(https?:\/\/|\/)/.test(b.avatar)) fail(E.INVALID_FIELD, 'avatar');
        patch.avatar = b.avatar;
      }
      await updateUser(db, me.id, patch);
      userChanged(me.id);
      return { error: 0, data: publicUser((await findUserById(db, me.id))!) };
    },
  );

  app.post(
    '/phone',
    {
      schema: {
        tags: ['account'],
        body: obj({ phone: str(32), verify: str(16), pwd: str(256) }),
        response: { 200: ok(userSchema) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const me = caller(request);
      const b = request.body as { phone: string; verify: string; pwd: string };
      rule('phone', checkPhone(b.phone));
      rule('verify', checkCode(b.verify));
      if (!(await passwordMatches(me.pwd, b.pwd))) fail(E.PASSWORD_WRONG);
      const other = await findUserByLogin(db, b.phone);
      if (other && other.id !== me.id) fail(E.PHONE_TAKEN);
      await consumeCode(db, b.phone, 'phone', b.verify);
      await updateUser(db, me.id, { phone: b.phone });
      userChanged(me.id);
      return { error: 0, data: publicUser((await findUserById(db, me.id))!) };
    },
  );

  app.post(
    '/password',
    {
      schema: {
        tags: ['account'],
        body: obj({ pwd: str(256), newPwd: str(64) }),
        response: { 200: ok(obj({ token: str() })) },
      },
      preHandler: requireUser,
    },
    async (request) => {
      const me = caller(request);
      const b = request.body as { pwd: string; newPwd: string };
      rule('newPwd', checkNewPassword(b.pwd, b.newPwd));
      if (!(await passwordMatches(me.pwd, b.pwd))) fail(E.PASSWORD_WRONG);
      // Every session ends; the caller gets a fresh one so this tab stays signed in.
      await setPassword(db, me.id, b.newPwd);
      const token = await createSession(db, me.id);
      return { error: 0, data: { token } };
    },
  );

  const logout = async (request: FastifyRequest) => {
    if (request.session) await revokeSession(db, request.session.tokenHash);
    return { error: 0, data: { logout: true } };
  };
  const logoutSchema = { tags: ['account'], response: { 200: ok(obj({ logout: bool() })) } };
  app.get('/logout', { schema: logoutSchema, preHandler: requireUser }, logout);
  app.post('/logout', { schema: logoutSchema, preHandler: requireUser }, logout);
}

async function utilRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const limits = app.config.rateLimits;

  app.get(
    '/captcha',
    {
      schema: { tags: ['account'], response: { 200: ok(obj({ ticket: str(), img: str(200_000) })) } },
      config: { rateLimit: { max: limits.captcha, timeWindow: 60_000 } },
    },
    async () => {
      const { ticket, img, answer } = await createCaptcha(db);
      if (app.testHooks) app.testHooks.captchas.set(ticket, answer);
      return { error: 0, data: { ticket, img } };
    },
  );

  app.post(
    '/verifyCode',
    {
      schema: {
        tags: ['account'],
        body: obj({
          phone: str(32),
          ticket: str(64),
          randstr: str(16),
          'type?': { type: 'string', enum: [...VERIFY_TYPES] },
          'project?': { anyOf: [id(), { type: 'null' }, { const: '' }] },
          'env?': str(32),
        }),
        response: { 200: ok(obj({ sent: bool() })) },
      },
      config: {
        rateLimit: {
          max: limits.verifyCode,
          timeWindow: 60_000,
        },
      },
    },
    async (request) => {
      const b = request.body as { phone: string; ticket: string; randstr: string; type?: string };
      const type = b.type ?? 'reg';
      rule('phone', checkPhone(b.phone));
      await consumeCaptcha(db, b.ticket, b.randstr);
      const existing = await findUserByLogin(db, b.phone);
      if (type === 'reg' && existing) fail(E.PHONE_TAKEN);
      if (type === 'phone') {
        // Changing phone needs a signed-in caller, and a phone nobody else uses.
        const token = requestToken(request);
        const me = token ? await resolveToken(db, token) : undefined;
        if (!me) fail(E.AUTH_REQUIRED);
        if (existing && existing.id !== me.user.id) fail(E.PHONE_TAKEN);
      }
      // Reset and login codes go only to registered phones; the answer does not say which.
      if ((type === 'reset' || type === 'login') && (!existing || existing.phone !== b.phone)) {
        return { error: 0, data: { sent: true } };
      }
      const code = await issueCode(db, b.phone, type);
      await app.sms.send({ phone: b.phone, code, type });
      return { error: 0, data: { sent: true } };
    },
  );
}

async function testRoutes(app: FastifyInstance): Promise<void> {
  if (app.testHooks) {
    const hooks = app.testHooks;
    app.get(
      '/outbox',
      { schema: { hide: true, querystring: obj({ 'phone?': str(32) }) } },
      async (request) => {
        const { phone } = request.query as { phone?: string };
        return { error: 0, data: app.smsOutbox.filter((m) => !phone || m.phone === phone) };
      },
    );
    app.get(
      '/captcha/:ticket',
      { schema: { hide: true, params: obj({ ticket: str(64) }) } },
      async (request) => {
        const { ticket } = request.params as { ticket: string };
        const answer = hooks.captchas.get(ticket);
        if (!answer) fail(E.NOT_FOUND);
        return { error: 0, data: { answer } };
      },
    );
  }
}

export default area('lc-account', accountPlugin);
