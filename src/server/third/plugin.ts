/**
 * Third-party sign-in (runtime spec §7).
 *
 * WeChat website sign-in: `GET /api/third/weixin/main/login?redirect=/path` sends the browser to
 * WeChat's QR-connect page with a single-use state (10 minutes); WeChat comes back to
 * `GET /api/third/weixin/main/callback?code&state`, where the code is exchanged for the person's id,
 * their user found (or created as `weixin_…`, shown as 微信用户), and the browser sent on to the
 * path with `?wx_token=` — a single-use sign-in code (2 minutes) that the client exchanges with
 * `POST /api/common/user/oauth/id {token}` for a session token.
 *
 * With no messaging app configured every one of these answers THIRD_NOT_CONFIGURED and changes nothing.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createSession, createUser, findUserById, isUniqueViolation } from '../account/service.ts';
import { newToken } from '../account/tokens.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { obj, ok, str } from '../http/schemas.ts';
import { addIdentity, CODE_TTL_MS, consumeState, identityUser, issueState, STATE_TTL_MS } from './states.ts';
import { WeixinError, weixinAuthorizeUrl, weixinExchange } from './weixin.ts';

/** Only a same-site path may be gone back to (no `//host`, no scheme). */
function safePath(v: unknown): string {
  return typeof v === 'string' && /^\/(?![/\\])[^\s]{0,511}$/.test(v) ? v : '/';
}

async function thirdPlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const { config } = app;
  const weixin = config.weixin && config.publicUrl ? config.weixin : undefined;

  app.post(
    '/api/common/user/oauth/id',
    {
      schema: {
        tags: ['third'],
        body: obj({ token: str(512, { minLength: 1 }) }),
        response: { 200: ok(obj({ token: str() })) },
      },
    },
    async (request) => {
      if (!weixin) fail(E.THIRD_NOT_CONFIGURED);
      const { token } = request.body as { token: string };
      const code = await consumeState(db, token, 'token');
      const user = code?.user_id ? await findUserById(db, code.user_id) : undefined;
      if (!user) fail(E.THIRD_TOKEN_INVALID);
      if (user.status !== 'active') fail(E.BANNED);
      return { error: 0, data: { token: await createSession(db, user.id) } };
    },
  );

  app.get(
    '/api/third/weixin/main/login',
    {
      schema: {
        tags: ['third'],
        description: 'Redirects (302) to WeChat QR connect; `redirect` is the path to come back to.',
        querystring: obj({ 'redirect?': str(512) }),
        response: { 200: { description: 'never: a 302 on success, else a coded error' } },
      },
    },
    async (request, reply) => {
      if (!weixin) fail(E.THIRD_NOT_CONFIGURED);
      const { redirect } = request.query as { redirect?: string };
      const state = await issueState(
        db,
        'login',
        'weixin',
        null,
        { redirect: safePath(redirect) },
        STATE_TTL_MS,
      );
      const back = `${config.publicUrl}/api/third/weixin/main/callback`;
      return reply.redirect(weixinAuthorizeUrl(weixin, back, state), 302);
    },
  );

  app.get(
    '/api/third/weixin/main/callback',
    {
      schema: {
        tags: ['third'],
        description: "WeChat's return: the state is taken once; on success a redirect with `?wx_token=`.",
        querystring: obj({ 'code?': str(256), 'state?': str(128) }),
        response: { 200: { description: 'never: a 302 on success, else a coded error' } },
      },
    },
    async (request, reply) => {
      if (!weixin) fail(E.THIRD_NOT_CONFIGURED);
      const { code, state } = request.query as { code?: string; state?: string };
      const taken = state ? await consumeState(db, state, 'login') : undefined;
      if (!taken) fail(E.THIRD_STATE_INVALID);
      // The user declined: WeChat comes back without a code.
      if (!code) fail(E.THIRD_PROVIDER, 'authorisation declined');
      let subject: string;
      try {
        subject = await weixinExchange(weixin, code);
      } catch (e) {
        if (!(e instanceof WeixinError)) throw e;
        request.log.warn({ err: e }, 'weixin code exchange failed');
        fail(E.THIRD_PROVIDER, e.message);
      }
      let userId = await identityUser(db, 'weixin', subject);
      if (!userId) {
        const account = `weixin_${crypto.randomBytes(5).toString('hex').slice(0, 9)}`;
        const user = await createUser(db, { account, phone: null, nickname: account, pwd: newToken() });
        try {
          await addIdentity(db, 'weixin', subject, user.id);
          userId = user.id;
        } catch (e) {
          // The same person signing in twice at once: the first identity wins.
          if (!isUniqueViolation(e)) throw e;
          await db.deleteFrom('users').where('id', '=', user.id).execute();
          userId = await identityUser(db, 'weixin', subject);
          if (!userId) throw e;
        }
      }
      const signIn = await issueState(db, 'token', 'weixin', userId, {}, CODE_TTL_MS);
      const data = JSON.parse(taken.data) as { redirect?: unknown };
      const path = safePath(data.redirect);
      return reply.redirect(`${path}${path.includes('?') ? '&' : '?'}wx_token=${signIn}`, 302);
    },
  );
}

export default area('lc-third', thirdPlugin);
