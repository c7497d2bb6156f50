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
 * Every OAuth state is single use and bound to the browser that started it (an httpOnly cookie whose
 * hash the state keeps): a state taken back in another browser is THIRD_STATE_FOREIGN.
 *
 * Bind (user centre): `POST /api/third/{weixin|wxwork}/main/bind` (signed in) answers a bind code
 * (10 minutes) and the URL the phone opens (`GET …/main/bind?token=`, shown as a QR code on desktop);
 * the code works once, starts the provider's OAuth with a bind state, and on the way back the
 * identity is bound to the code's user. The desktop polls `GET …/main/bind/token/{token}` (waiting,
 * scanned, bound). `POST …/main/unbind` removes the binding; `GET /api/third/binds` lists them.
 *
 * Custom builds (`…/weixin/third/login|bind|{project}/wxconfig`) use the project's custom config:
 * weixinLogin on, weixinAppid one of the server's WEIXIN_APPS (whose secret only the server has),
 * weixinAppType `mp` (inside WeChat, snsapi_userinfo) or else website QR connect.
 *
 * WeCom: `GET /api/third/wxwork/login?corpid=` (in WeCom the in-app authorise page, else the QR page),
 * back to `/api/third/wxwork/callback`; members are users `wxwork_{userid}_{…}`. `POST
 * …/wxwork/main/jsconfig|jsagentconfig/{corpid} {url}` sign `wx.config` / `wx.agentConfig`, and
 * `GET …/wxwork/main/project/{corpid}` answers the app's project and sign-in URL (the wxwork entry mode).
 * Access tokens and tickets are cached until expiry (in Redis when REDIS_URL is set: token-cache.ts).
 *
 * With no messaging app configured every one of these answers THIRD_NOT_CONFIGURED and changes nothing.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireUser } from '../account/auth.ts';
import { createSession, createUser, findUserById, isUniqueViolation } from '../account/service.ts';
import { newToken, sha256hex } from '../account/tokens.ts';
import { jssdkScripts, type WxworkCorp } from '../config.ts';
import { E, fail } from '../errors.ts';
import { area } from '../http/plugin-kit.ts';
import { bool, id, int, obj, ok, str } from '../http/schemas.ts';
import { type CustomConfig, findProject, parseJson } from '../project/service.ts';
import {
  addIdentity,
  CODE_TTL_MS,
  consumeState,
  identityUser,
  issueState,
  removeIdentity,
  STATE_TTL_MS,
  userIdentities,
} from './states.ts';
import { TokenCache } from './token-cache.ts';
import {
  jsSdkSign,
  type WeixinApp,
  WeixinError,
  weixinAuthorizeUrl,
  weixinExchange,
  weixinJsapiTicket,
} from './weixin.ts';
import { wxworkAuthorizeUrl, wxworkCorp, wxworkTicket, wxworkUserId } from './wxwork.ts';

const COOKIE = 'lc_oauth';
type Provider = 'weixin' | 'wxwork';
/** What an OAuth state carries. */
interface Trip {
  mode: 'login' | 'bind';
  redirect: string;
  /** sha256 of the browser's cookie. */
  browser: string;
  /** weixin: the app id used (main or a custom build's); wxwork: the corp. */
  appId?: string;
  corpId?: string;
  /** bind: the bind code's hash (its status becomes `bound`). */
  bind?: string;
}
/** What a bind code carries. */
interface BindCode {
  status: 'waiting' | 'scanned' | 'bound';
  project?: string;
  corpId?: string;
  redirect: string;
}

/** Only a same-site path may be gone back to (no `//host`, no scheme). */
function safePath(v: unknown): string {
  return typeof v === 'string' && /^\/(?![/\\])[^\s]{0,511}$/.test(v) ? v : '/';
}

async function thirdPlugin(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const { config } = app;
  const weixin = config.weixin && config.publicUrl ? config.weixin : undefined;
  const wxwork = config.wxwork && config.publicUrl ? config.wxwork : undefined;
  const cache = new TokenCache();
  if (config.redisUrl) await cache.connect(config.redisUrl);
  app.addHook('onClose', async () => cache.close());

  const configured = (p: Provider) => {
    if (p === 'weixin' ? !weixin : !wxwork) fail(E.THIRD_NOT_CONFIGURED);
  };

  /** A custom build's WeChat app (project config), or fail with why not. */
  async function customApp(projectId: string, forLogin: boolean): Promise<WeixinApp> {
    const w = weixin ?? fail(E.THIRD_NOT_CONFIGURED);
    const project = await findProject(db, projectId);
    if (!project) fail(E.PROJECT_NOT_FOUND);
    const c = parseJson<CustomConfig>(project.custom, {}).config ?? {};
    if (forLogin && !c.weixinLogin) fail(E.THIRD_LOGIN_DISABLED);
    const appId = c.weixinAppid ?? '';
    const secret = appId === w.appId ? w.secret : w.apps[appId];
    if (!appId || !secret) fail(E.THIRD_NOT_CONFIGURED);
    return { appId, secret, type: c.weixinAppType === 'mp' ? 'mp' : 'web' };
  }
  function appById(appId: string | undefined): WeixinApp {
    const w = weixin ?? fail(E.THIRD_NOT_CONFIGURED);
    if (!appId || appId === w.appId) return { appId: w.appId, secret: w.secret, type: 'web' };
    const secret = w.apps[appId] ?? fail(E.THIRD_NOT_CONFIGURED);
    return { appId, secret, type: 'web' };
  }
  function corpOf(corpId: string | undefined): WxworkCorp {
    configured('wxwork');
    const corps = wxwork?.corps ?? [];
    const corp = corpId ? wxworkCorp(wxwork, corpId) : corps.length === 1 ? corps[0] : undefined;
    return corp ?? fail(E.WXWORK_CORP_UNKNOWN);
  }

  /** This browser's OAuth cookie (set when missing); answers its hash. */
  function browserOf(request: FastifyRequest, reply: FastifyReply): string {
    let v = readCookie(request);
    if (!v) {
      v = newToken();
      const secure = config.publicUrl?.startsWith('https:') ? '; Secure' : '';
      reply.header(
        'set-cookie',
        `${COOKIE}=${v}; Path=/api/third; HttpOnly; SameSite=Lax; Max-Age=${STATE_TTL_MS / 1000}${secure}`,
      );
    }
    return sha256hex(v);
  }
  /** Take an OAuth state back: single use, this purpose, and started in this browser. */
  async function takeTrip(request: FastifyRequest, state: string | undefined, p: Provider): Promise<Trip> {
    const taken = state ? await consumeState(db, state, 'login') : undefined;
    if (!taken || taken.provider !== p) fail(E.THIRD_STATE_INVALID);
    const trip = JSON.parse(taken.data) as Trip;
    const cookie = readCookie(request);
    if (!cookie || sha256hex(cookie) !== trip.browser) fail(E.THIRD_STATE_FOREIGN);
    if (trip.mode === 'bind' && !taken.user_id) fail(E.THIRD_STATE_INVALID);
    return Object.assign(trip, { user: taken.user_id });
  }

  /** Sign the person in (creating their user) or bind them; answers where the browser goes next. */
  async function arrive(
    p: Provider,
    subject: string,
    trip: Trip & { user?: string | null },
    newAccount: () => string,
  ): Promise<string> {
    const path = safePath(trip.redirect);
    const join = (q: string) => `${path}${path.includes('?') ? '&' : '?'}${q}`;
    const owner = await identityUser(db, p, subject);
    if (trip.mode === 'bind') {
      const userId = trip.user as string;
      if (owner && owner !== userId) fail(E.THIRD_IDENTITY_TAKEN);
      if (!owner) {
        if ((await userIdentities(db, userId)).includes(p)) fail(E.THIRD_ALREADY_BOUND);
        try {
          await addIdentity(db, p, subject, userId);
        } catch (e) {
          if (!isUniqueViolation(e)) throw e;
          fail(E.THIRD_ALREADY_BOUND);
        }
      }
      if (trip.bind) await setBindStatus(trip.bind, 'bound');
      return join(`bound=${p}`);
    }
    let userId = owner;
    if (!userId) {
      const account = newAccount();
      const user = await createUser(db, { account, phone: null, nickname: account, pwd: newToken() });
      try {
        await addIdentity(db, p, subject, user.id);
        userId = user.id;
      } catch (e) {
        // The same person signing in twice at once: the first identity wins.
        if (!isUniqueViolation(e)) throw e;
        await db.deleteFrom('users').where('id', '=', user.id).execute();
        userId = await identityUser(db, p, subject);
        if (!userId) throw e;
      }
    }
    const user = await findUserById(db, userId);
    if (user?.status !== 'active') fail(E.BANNED);
    const signIn = await issueState(db, 'token', p, userId, {}, CODE_TTL_MS);
    return join(`wx_token=${signIn}`);
  }

  async function bindRow(token: string) {
    const row = await db
      .selectFrom('third_states')
      .selectAll()
      .where('hash', '=', sha256hex(token))
      .where('purpose', '=', 'bind')
      .executeTakeFirst();
    if (!row || row.expires_at < Date.now()) fail(E.THIRD_BIND_TOKEN_INVALID);
    return row;
  }
  async function setBindStatus(hash: string, status: BindCode['status'], from?: string): Promise<boolean> {
    const row = await db
      .selectFrom('third_states')
      .select('data')
      .where('hash', '=', hash)
      .executeTakeFirst();
    if (!row) return false;
    const data = JSON.parse(row.data) as BindCode;
    if (from && data.status !== from) return false;
    const r = await db
      .updateTable('third_states')
      .set({ data: JSON.stringify({ ...data, status }) })
      .where('hash', '=', hash)
      .where('data', '=', row.data)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

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
      if (!weixin && !wxwork) fail(E.THIRD_NOT_CONFIGURED);
      const { token } = request.body as { token: string };
      const code = await consumeState(db, token, 'token');
      const user = code?.user_id ? await findUserById(db, code.user_id) : undefined;
      if (!user) fail(E.THIRD_TOKEN_INVALID);
      if (user.status !== 'active') fail(E.BANNED);
      return { error: 0, data: { token: await createSession(db, user.id) } };
    },
  );

  const redirectRoute = { 200: { description: 'never: a 302 on success, else a coded error' } };

  // ---- WeChat sign-in (main app, and a custom build's app) ----
  async function weixinStart(
    request: FastifyRequest,
    reply: FastifyReply,
    wxApp: WeixinApp,
    trip: Omit<Trip, 'browser' | 'appId'>,
    userId: string | null,
  ) {
    const w = weixin ?? fail(E.THIRD_NOT_CONFIGURED);
    const browser = browserOf(request, reply);
    const state = await issueState(
      db,
      'login',
      'weixin',
      userId,
      { ...trip, browser, appId: wxApp.appId },
      STATE_TTL_MS,
    );
    const back = `${config.publicUrl}/api/third/weixin/main/callback`;
    return reply.redirect(weixinAuthorizeUrl(w, back, state, wxApp), 302);
  }

  app.get(
    '/api/third/weixin/main/login',
    {
      schema: {
        tags: ['third'],
        description: 'Redirects (302) to WeChat QR connect; `redirect` is the path to come back to.',
        querystring: obj({ 'redirect?': str(512) }),
        response: redirectRoute,
      },
    },
    async (request, reply) => {
      configured('weixin');
      const { redirect } = request.query as { redirect?: string };
      return weixinStart(
        request,
        reply,
        appById(undefined),
        { mode: 'login', redirect: safePath(redirect) },
        null,
      );
    },
  );

  app.get(
    '/api/third/weixin/third/login',
    {
      schema: {
        tags: ['third'],
        description:
          "A custom build's WeChat sign-in: the project's weixinLogin, weixinAppid, weixinAppType.",
        querystring: obj({ project: id(), 'redirect?': str(512) }),
        response: redirectRoute,
      },
    },
    async (request, reply) => {
      configured('weixin');
      const { project, redirect } = request.query as { project: string; redirect?: string };
      const wxApp = await customApp(project, true);
      return weixinStart(request, reply, wxApp, { mode: 'login', redirect: safePath(redirect) }, null);
    },
  );

  app.get(
    '/api/third/weixin/main/callback',
    {
      schema: {
        tags: ['third'],
        description: "WeChat's return: the state is taken once; on success a redirect with `?wx_token=`.",
        querystring: obj({ 'code?': str(256), 'state?': str(128) }),
        response: redirectRoute,
      },
    },
    async (request, reply) => {
      const w = weixin ?? fail(E.THIRD_NOT_CONFIGURED);
      const { code, state } = request.query as { code?: string; state?: string };
      const trip = await takeTrip(request, state, 'weixin');
      // The user declined: WeChat comes back without a code.
      if (!code) fail(E.THIRD_PROVIDER, 'authorisation declined');
      let subject: string;
      try {
        subject = await weixinExchange(w, code, 10_000, appById(trip.appId));
      } catch (e) {
        if (!(e instanceof WeixinError)) throw e;
        request.log.warn({ err: e }, 'weixin code exchange failed');
        fail(E.THIRD_PROVIDER, e.message);
      }
      const to = await arrive(
        'weixin',
        subject,
        trip,
        () => `weixin_${crypto.randomBytes(5).toString('hex').slice(0, 9)}`,
      );
      return reply.redirect(to, 302);
    },
  );

  // ---- WeCom sign-in ----
  app.get(
    '/api/third/wxwork/login',
    {
      schema: {
        tags: ['third'],
        description:
          'Redirects (302) to WeCom: the in-app authorise page inside WeCom, else the QR sign-in page. `corpid` may be left out when one corp is configured.',
        querystring: obj({ 'corpid?': str(64), 'redirect?': str(512) }),
        response: redirectRoute,
      },
    },
    async (request, reply) => {
      const w = wxwork ?? fail(E.THIRD_NOT_CONFIGURED);
      const { corpid, redirect } = request.query as { corpid?: string; redirect?: string };
      const corp = corpOf(corpid);
      return wxworkStart(request, reply, corp, { mode: 'login', redirect: safePath(redirect) }, null, w);
    },
  );
  async function wxworkStart(
    request: FastifyRequest,
    reply: FastifyReply,
    corp: WxworkCorp,
    trip: Omit<Trip, 'browser' | 'corpId'>,
    userId: string | null,
    w = wxwork ?? fail(E.THIRD_NOT_CONFIGURED),
  ) {
    const browser = browserOf(request, reply);
    const state = await issueState(
      db,
      'login',
      'wxwork',
      userId,
      { ...trip, browser, corpId: corp.corpId },
      STATE_TTL_MS,
    );
    const inApp = /wxwork/i.test(String(request.headers['user-agent'] ?? ''));
    const back = `${config.publicUrl}/api/third/wxwork/callback`;
    return reply.redirect(wxworkAuthorizeUrl(w, corp, back, state, inApp), 302);
  }

  app.get(
    '/api/third/wxwork/callback',
    {
      schema: {
        tags: ['third'],
        description: "WeCom's return: the state is taken once; on success a redirect with `?wx_token=`.",
        querystring: obj({ 'code?': str(256), 'state?': str(128), 'appid?': str(64) }),
        response: redirectRoute,
      },
    },
    async (request, reply) => {
      const w = wxwork ?? fail(E.THIRD_NOT_CONFIGURED);
      const { code, state } = request.query as { code?: string; state?: string };
      const trip = await takeTrip(request, state, 'wxwork');
      const corp = corpOf(trip.corpId);
      if (!code) fail(E.THIRD_PROVIDER, 'authorisation declined');
      let member: string | undefined;
      try {
        member = await wxworkUserId(w, cache, corp, code);
      } catch (e) {
        if (!(e instanceof WeixinError)) throw e;
        request.log.warn({ err: e }, 'wxwork code exchange failed');
        fail(E.THIRD_PROVIDER, e.message);
      }
      if (!member) fail(E.WXWORK_NOT_MEMBER);
      const to = await arrive('wxwork', `${corp.corpId}:${member}`, trip, () => {
        const part = member.replace(/[^A-Za-z0-9-]/g, '').slice(0, 20) || 'member';
        return `wxwork_${part}_${crypto.randomBytes(3).toString('hex')}`;
      });
      return reply.redirect(to, 302);
    },
  );

  // ---- Bind and unbind (user centre) ----
  for (const p of ['weixin', 'wxwork'] as const) {
    app.post(
      `/api/third/${p}/main/bind`,
      {
        preHandler: requireUser,
        schema: {
          tags: ['third'],
          description:
            'A bind code for the signed-in user (10 minutes, single use) and the URL the phone opens (shown as a QR code).',
          body: obj({ 'project?': id(), 'corpid?': str(64), 'redirect?': str(512) }),
          response: { 200: ok(obj({ token: str(), url: str(), expiresAt: int() })) },
        },
      },
      async (request) => {
        configured(p);
        const user = request.user!;
        const b = (request.body ?? {}) as { project?: string; corpid?: string; redirect?: string };
        if ((await userIdentities(db, user.id)).includes(p)) fail(E.THIRD_ALREADY_BOUND);
        const data: BindCode = { status: 'waiting', redirect: safePath(b.redirect ?? '/user') };
        if (p === 'wxwork') data.corpId = corpOf(b.corpid).corpId;
        else if (b.project) {
          await customApp(b.project, false);
          data.project = b.project;
        }
        const now = Date.now();
        const token = await issueState(db, 'bind', p, user.id, { ...data }, STATE_TTL_MS, now);
        const path = p === 'weixin' && data.project ? 'weixin/third/bind' : `${p}/main/bind`;
        return {
          error: 0,
          data: {
            token,
            url: `${config.publicUrl}/api/third/${path}?token=${token}`,
            expiresAt: now + STATE_TTL_MS,
          },
        };
      },
    );

    app.get(
      `/api/third/${p}/main/bind/token/:token`,
      {
        preHandler: requireUser,
        schema: {
          tags: ['third'],
          description: "A bind code's progress for the user who asked for it: waiting, scanned or bound.",
          params: obj({ token: str(128) }),
          response: { 200: ok(obj({ status: str(), expiresAt: int() })) },
        },
      },
      async (request) => {
        const row = await bindRow((request.params as { token: string }).token);
        if (row.provider !== p || row.user_id !== request.user!.id) fail(E.THIRD_BIND_TOKEN_INVALID);
        const data = JSON.parse(row.data) as BindCode;
        return { error: 0, data: { status: data.status, expiresAt: row.expires_at } };
      },
    );

    app.post(
      `/api/third/${p}/main/unbind`,
      {
        preHandler: requireUser,
        schema: { tags: ['third'], body: obj({}), response: { 200: ok(obj({ unbound: bool() })) } },
      },
      async (request) => {
        const user = request.user!;
        if (!(await userIdentities(db, user.id)).includes(p)) fail(E.THIRD_NOT_BOUND);
        // A user made by this sign-in has no password they know: it is their only way in.
        if (user.account?.startsWith(`${p}_`) && !user.phone) fail(E.THIRD_LAST_SIGN_IN);
        await removeIdentity(db, p, user.id);
        return { error: 0, data: { unbound: true } };
      },
    );
  }

  /** The phone opens the bind URL: the code is taken (once) and the provider's OAuth starts. */
  const bindEntry =
    (p: Provider, custom: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
      configured(p);
      const { token } = request.query as { token: string };
      const row = await bindRow(token);
      if (row.provider !== p || !row.user_id) fail(E.THIRD_BIND_TOKEN_INVALID);
      const data = JSON.parse(row.data) as BindCode;
      if (custom !== !!data.project) fail(E.THIRD_BIND_TOKEN_INVALID);
      if (!(await setBindStatus(row.hash, 'scanned', 'waiting'))) fail(E.THIRD_BIND_TOKEN_INVALID);
      const trip = { mode: 'bind' as const, redirect: data.redirect, bind: row.hash };
      if (p === 'wxwork') return wxworkStart(request, reply, corpOf(data.corpId), trip, row.user_id);
      const wxApp = data.project ? await customApp(data.project, false) : appById(undefined);
      return weixinStart(request, reply, wxApp, trip, row.user_id);
    };
  const bindQuery = obj({ token: str(128, { minLength: 1 }) });
  app.get(
    '/api/third/weixin/main/bind',
    { schema: { tags: ['third'], querystring: bindQuery, response: redirectRoute } },
    bindEntry('weixin', false),
  );
  app.get(
    '/api/third/weixin/third/bind',
    { schema: { tags: ['third'], querystring: bindQuery, response: redirectRoute } },
    bindEntry('weixin', true),
  );
  app.get(
    '/api/third/wxwork/main/bind',
    { schema: { tags: ['third'], querystring: bindQuery, response: redirectRoute } },
    bindEntry('wxwork', false),
  );

  app.get(
    '/api/third/offered',
    {
      schema: {
        tags: ['third'],
        description:
          'Which messaging-app sign-ins this server offers (for the sign-in screen; public), the JS-SDK scripts a page inside WeChat / WeCom loads, and the WeCom corps.',
        response: {
          200: ok(
            obj({
              weixin: bool(),
              wxwork: bool(),
              jssdk: obj({
                weixin: { type: ['string', 'null'] },
                wxwork: { type: 'array', items: str() },
              }),
              corps: { type: 'array', items: str() },
            }),
          ),
        },
      },
    },
    async () => ({
      error: 0,
      data: {
        weixin: !!weixin,
        wxwork: !!wxwork,
        jssdk: jssdkScripts({ weixin, wxwork }),
        corps: wxwork?.corps.map((c) => c.corpId) ?? [],
      },
    }),
  );

  app.get(
    '/api/third/binds',
    {
      preHandler: requireUser,
      schema: {
        tags: ['third'],
        description: "The signed-in user's bindings and which providers this server offers.",
        response: {
          200: ok(
            obj({
              weixin: bool(),
              wxwork: bool(),
              offered: { type: 'array', items: str() },
              corps: { type: 'array', items: str() },
            }),
          ),
        },
      },
    },
    async (request) => {
      const mine = await userIdentities(db, request.user!.id);
      const offered = [weixin && 'weixin', wxwork && 'wxwork'].filter(Boolean) as string[];
      return {
        error: 0,
        data: {
          weixin: mine.includes('weixin'),
          wxwork: mine.includes('wxwork'),
          offered,
          corps: wxwork?.corps.map((c) => c.corpId) ?? [],
        },
      };
    },
  );

  // ---- JS-SDK signatures ----
  const signed = obj({ appId: str(), timestamp: int(), nonceStr: str(), signature: str() });
  function pageUrl(request: FastifyRequest, given: string | undefined): string {
    const url = given ?? String(request.headers.referer ?? '');
    if (url.length > 1024 || !/^https?:\/\/[^\s#]+(#.*)?$/.test(url)) fail(E.THIRD_URL_INVALID);
    return url;
  }
  async function sign<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      if (!(e instanceof WeixinError)) throw e;
      request.log.warn({ err: e }, 'js-sdk ticket failed');
      fail(E.THIRD_PROVIDER, e.message);
    }
  }

  app.get(
    '/api/third/weixin/main/wxconfig',
    {
      schema: {
        tags: ['third'],
        description:
          "`wx.config` for a page (url, else the Referer) signed over the official account's jsapi_ticket.",
        querystring: obj({ 'url?': str(1024) }),
        response: { 200: ok(signed) },
      },
    },
    async (request) => {
      const w = weixin ?? fail(E.THIRD_NOT_CONFIGURED);
      const url = pageUrl(request, (request.query as { url?: string }).url);
      const ticket = await sign(request, () => weixinJsapiTicket(w, cache, w.mpAppId, w.mpSecret));
      return { error: 0, data: { appId: w.mpAppId, ...jsSdkSign(ticket, url) } };
    },
  );

  app.get(
    '/api/third/weixin/third/:custom/wxconfig',
    {
      schema: {
        tags: ['third'],
        description:
          "`wx.config` for a custom build: signed with the project's weixinAppid (a WEIXIN_APPS app).",
        params: obj({ custom: id() }),
        querystring: obj({ 'url?': str(1024) }),
        response: { 200: ok(signed) },
      },
    },
    async (request) => {
      const w = weixin ?? fail(E.THIRD_NOT_CONFIGURED);
      const wxApp = await customApp((request.params as { custom: string }).custom, false);
      const url = pageUrl(request, (request.query as { url?: string }).url);
      const ticket = await sign(request, () => weixinJsapiTicket(w, cache, wxApp.appId, wxApp.secret));
      return { error: 0, data: { appId: wxApp.appId, ...jsSdkSign(ticket, url) } };
    },
  );

  const corpParams = obj({ corpid: str(64, { minLength: 1 }) });
  app.post(
    '/api/third/wxwork/main/jsconfig/:corpid',
    {
      schema: {
        tags: ['third'],
        description: "`wx.config` in WeCom, signed over the corp's jsapi_ticket.",
        params: corpParams,
        body: obj({ 'url?': str(1024) }),
        response: { 200: ok(signed) },
      },
    },
    async (request) => {
      const w = wxwork ?? fail(E.THIRD_NOT_CONFIGURED);
      const corp = corpOf((request.params as { corpid: string }).corpid);
      const url = pageUrl(request, (request.body as { url?: string } | undefined)?.url);
      const ticket = await sign(request, () => wxworkTicket(w, cache, corp, 'corp'));
      return { error: 0, data: { appId: corp.corpId, ...jsSdkSign(ticket, url) } };
    },
  );

  app.post(
    '/api/third/wxwork/main/jsagentconfig/:corpid',
    {
      schema: {
        tags: ['third'],
        description: "`wx.agentConfig` in WeCom, signed over the app's agent_config ticket.",
        params: corpParams,
        body: obj({ 'url?': str(1024) }),
        response: {
          200: ok(
            obj({ corpid: str(), agentid: str(), timestamp: int(), nonceStr: str(), signature: str() }),
          ),
        },
      },
    },
    async (request) => {
      const w = wxwork ?? fail(E.THIRD_NOT_CONFIGURED);
      const corp = corpOf((request.params as { corpid: string }).corpid);
      const url = pageUrl(request, (request.body as { url?: string } | undefined)?.url);
      const ticket = await sign(request, () => wxworkTicket(w, cache, corp, 'agent'));
      return { error: 0, data: { corpid: corp.corpId, agentid: corp.agentId, ...jsSdkSign(ticket, url) } };
    },
  );

  app.get(
    '/api/third/wxwork/main/project/:corpid',
    {
      schema: {
        tags: ['third'],
        description:
          "The wxwork entry mode: the corp's app, the project it opens and where to sign in (the project's wxworkLoginUrl, else ours).",
        params: corpParams,
        response: {
          200: ok(
            obj({
              corpid: str(),
              agentid: str(),
              project: { type: ['object', 'null'], properties: { _id: str(), name: str() } },
              loginUrl: str(),
            }),
          ),
        },
      },
    },
    async (request) => {
      const corp = corpOf((request.params as { corpid: string }).corpid);
      const project = corp.projectId ? await findProject(db, corp.projectId) : undefined;
      const custom = project ? parseJson<CustomConfig>(project.custom, {}).config : undefined;
      const ours = `/api/third/wxwork/login?corpid=${encodeURIComponent(corp.corpId)}`;
      return {
        error: 0,
        data: {
          corpid: corp.corpId,
          agentid: corp.agentId,
          project: project ? { _id: project.id, name: project.name } : null,
          loginUrl: custom?.wxworkLoginUrl || ours,
        },
      };
    },
  );
}

function readCookie(request: FastifyRequest): string | undefined {
  const raw = String(request.headers.cookie ?? '');
  for (const part of raw.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) {
      const value = v.join('=');
      return /^[A-Za-z0-9_-]{16,128}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

export default area('lc-third', thirdPlugin);
