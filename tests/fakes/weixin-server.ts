/**
 * A local stand-in for WeChat: sign-in pages `/connect/qrconnect` (website, snsapi_login) and
 * `/connect/oauth2/authorize` (inside WeChat, snsapi_userinfo/base) — both answer a redirect to the
 * app's redirect_uri with a fresh code and the state — and `/sns/oauth2/access_token` (code →
 * openid/unionid, checking app id, secret, and that each code is used once). For the JS-SDK:
 * `/cgi-bin/token` (client_credential) and `/cgi-bin/ticket/getticket` (jsapi_ticket for a live
 * token), and the checker WeChat runs on `wx.config`: `verify()` or `POST /fake/jssdk/verify`
 * `{appId, timestamp, nonceStr, signature, url}` → `{ok}`. Several apps (a custom build's) may be
 * registered with `addApp`. `/fake/jweixin.js` is a stand-in for the JS-SDK script (tests/fakes/jssdk.ts).
 */
import crypto from 'node:crypto';
import { serveScript } from './jssdk.ts';
import { type Listening, listen, readBody } from './listen.ts';

export interface JsConfig {
  appId: string;
  timestamp: number;
  nonceStr: string;
  signature: string;
}

export interface FakeWeixin {
  url: string;
  appId: string;
  secret: string;
  /** The person who authorises next (their unionid). */
  person: string;
  /** How many access tokens / tickets were handed out (the cache should keep these at one). */
  tokenFetches: number;
  ticketFetches: number;
  addApp(appId: string): string;
  /** Does this `wx.config` verify for this page URL (the app's current ticket)? */
  verify(c: JsConfig, url: string): boolean;
  /** Make every access token handed out so far invalid (as WeChat does after a new one). */
  expireTokens(): void;
  close(): Promise<void>;
}

export async function startFakeWeixin(): Promise<FakeWeixin> {
  const codes = new Map<string, { person: string; appId: string }>();
  const apps = new Map<string, string>();
  const tokens = new Map<string, string>();
  const tickets = new Map<string, string>();
  const fake = {
    appId: 'wx5a1b2c3d4e5f6a7b',
    secret: crypto.randomBytes(16).toString('hex'),
    person: 'o6_bmasdasdsad6_2sgVt7hMZOPfL',
    tokenFetches: 0,
    ticketFetches: 0,
  } as FakeWeixin;
  apps.set(fake.appId, fake.secret);
  fake.addApp = (appId) => {
    const secret = crypto.randomBytes(16).toString('hex');
    apps.set(appId, secret);
    return secret;
  };
  fake.expireTokens = () => tokens.clear();
  fake.verify = (c, url) => {
    const ticket = tickets.get(c.appId);
    if (!ticket || typeof c.timestamp !== 'number' || !c.nonceStr) return false;
    const plain = `jsapi_ticket=${ticket}&noncestr=${c.nonceStr}&timestamp=${c.timestamp}&url=${url.split('#')[0]}`;
    return crypto.createHash('sha1').update(plain).digest('hex') === c.signature;
  };
  const json = (res: import('node:http').ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server: Listening = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const q = url.searchParams;
    if (serveScript(url.pathname, res)) return;
    if (url.pathname === '/connect/qrconnect' || url.pathname === '/connect/oauth2/authorize') {
      const scopes =
        url.pathname === '/connect/qrconnect' ? ['snsapi_login'] : ['snsapi_userinfo', 'snsapi_base'];
      if (
        !apps.has(q.get('appid') ?? '') ||
        !scopes.includes(q.get('scope') ?? '') ||
        !q.get('redirect_uri')
      ) {
        res.writeHead(400);
        res.end('bad appid or scope');
        return;
      }
      const code = crypto.randomBytes(8).toString('hex');
      codes.set(code, { person: fake.person, appId: q.get('appid')! });
      const back = new URL(q.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    if (url.pathname === '/sns/oauth2/access_token') {
      const appId = q.get('appid') ?? '';
      if (!apps.has(appId) || q.get('secret') !== apps.get(appId)) {
        json(res, { errcode: 40125, errmsg: 'invalid appsecret' });
        return;
      }
      const given = codes.get(q.get('code') ?? '');
      codes.delete(q.get('code') ?? '');
      const person = given?.appId === appId ? given.person : undefined;
      if (!person || q.get('grant_type') !== 'authorization_code') {
        json(res, { errcode: 40029, errmsg: 'invalid code' });
        return;
      }
      json(res, {
        access_token: crypto.randomBytes(16).toString('hex'),
        expires_in: 7200,
        refresh_token: crypto.randomBytes(16).toString('hex'),
        openid: `openid_${person}`,
        scope: 'snsapi_login',
        unionid: person,
      });
      return;
    }
    if (url.pathname === '/cgi-bin/token') {
      const appId = q.get('appid') ?? '';
      if (
        q.get('grant_type') !== 'client_credential' ||
        !apps.has(appId) ||
        q.get('secret') !== apps.get(appId)
      ) {
        json(res, { errcode: 40125, errmsg: 'invalid appsecret' });
        return;
      }
      fake.tokenFetches++;
      const token = crypto.randomBytes(24).toString('hex');
      tokens.set(token, appId);
      json(res, { access_token: token, expires_in: 7200 });
      return;
    }
    if (url.pathname === '/cgi-bin/ticket/getticket') {
      const appId = tokens.get(q.get('access_token') ?? '');
      if (!appId) {
        json(res, { errcode: 40001, errmsg: 'invalid credential, access_token is invalid or not latest' });
        return;
      }
      if (q.get('type') !== 'jsapi') {
        json(res, { errcode: 40097, errmsg: 'invalid args' });
        return;
      }
      fake.ticketFetches++;
      const ticket = crypto.randomBytes(32).toString('base64url');
      tickets.set(appId, ticket);
      json(res, { errcode: 0, errmsg: 'ok', ticket, expires_in: 7200 });
      return;
    }
    if (url.pathname === '/fake/jssdk/verify' && req.method === 'POST') {
      const b = JSON.parse((await readBody(req)) || '{}') as JsConfig & { url: string };
      res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      res.end(JSON.stringify({ ok: fake.verify(b, String(b.url ?? '')) }));
      return;
    }
    res.writeHead(404);
    res.end();
  });
  return Object.assign(fake, { url: server.url, close: () => server.close() });
}
