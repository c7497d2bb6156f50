/**
 * A local stand-in for WeCom (企业微信): `/cgi-bin/gettoken` (corpid + app secret → access token),
 * `/cgi-bin/get_jsapi_ticket` (the corp's) and `/cgi-bin/ticket/get?type=agent_config` (the app's),
 * the sign-in pages `/connect/oauth2/authorize` (inside WeCom) and `/wwlogin/sso/login` (desktop QR),
 * which redirect back with a fresh single-use code, and `/cgi-bin/auth/getuserinfo` (code → the
 * member's userid, or only an openid for a non-member). `verify()` checks a `wx.config` or
 * `wx.agentConfig` signature as WeCom does. `expireTokens()` makes the access tokens handed out so
 * far invalid (42001, as after a new one or a secret change); `refuseTokens` refuses every token.
 * `/fake/jweixin.js` and `/fake/jwxwork.js` stand in for the JS-SDK scripts (tests/fakes/jssdk.ts).
 */
import crypto from 'node:crypto';
import { serveScript } from './jssdk.ts';
import { type Listening, listen } from './listen.ts';

export interface FakeWxwork {
  url: string;
  corpId: string;
  agentId: string;
  secret: string;
  /** The member who authorises next (their userid; empty: a non-member). */
  member: string;
  tokenFetches: number;
  /** Calls that answered "access token expired". */
  tokenRefusals: number;
  refuseTokens: boolean;
  expireTokens(): void;
  verify(
    c: { timestamp: number; nonceStr: string; signature: string },
    url: string,
    kind: 'corp' | 'agent',
  ): boolean;
  close(): Promise<void>;
}

export async function startFakeWxwork(): Promise<FakeWxwork> {
  const codes = new Map<string, string>();
  const tokens = new Set<string>();
  const tickets: { corp?: string; agent?: string } = {};
  const fake = {
    corpId: 'ww1a2b3c4d5e6f7a8b',
    agentId: '1000002',
    secret: crypto.randomBytes(20).toString('base64url'),
    member: 'ZhangSan',
    tokenFetches: 0,
    tokenRefusals: 0,
    refuseTokens: false,
  } as FakeWxwork;
  fake.expireTokens = () => tokens.clear();
  fake.verify = (c, url, kind) => {
    const ticket = tickets[kind];
    if (!ticket) return false;
    const plain = `jsapi_ticket=${ticket}&noncestr=${c.nonceStr}&timestamp=${c.timestamp}&url=${url.split('#')[0]}`;
    return crypto.createHash('sha1').update(plain).digest('hex') === c.signature;
  };
  const json = (res: import('node:http').ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server: Listening = await listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const q = url.searchParams;
    const tokenOk = () => {
      const ok = !fake.refuseTokens && tokens.has(q.get('access_token') ?? '');
      if (!ok) fake.tokenRefusals++;
      return ok;
    };
    if (serveScript(url.pathname, res)) return;
    switch (url.pathname) {
      case '/connect/oauth2/authorize':
      case '/wwlogin/sso/login': {
        const inApp = url.pathname === '/connect/oauth2/authorize';
        const scopeOk = inApp ? q.get('scope') === 'snsapi_base' : q.get('login_type') === 'CorpApp';
        if (q.get('appid') !== fake.corpId || q.get('agentid') !== fake.agentId || !scopeOk) {
          res.writeHead(400);
          res.end('bad corp, agent or scope');
          return;
        }
        const code = crypto.randomBytes(8).toString('hex');
        codes.set(code, fake.member);
        const back = new URL(q.get('redirect_uri') ?? '');
        back.searchParams.set('code', code);
        back.searchParams.set('state', q.get('state') ?? '');
        if (!inApp) back.searchParams.set('appid', fake.corpId);
        res.writeHead(302, { location: back.toString() });
        res.end();
        return;
      }
      case '/cgi-bin/gettoken': {
        if (q.get('corpid') !== fake.corpId || q.get('corpsecret') !== fake.secret) {
          json(res, { errcode: 40001, errmsg: 'invalid secret' });
          return;
        }
        fake.tokenFetches++;
        const token = crypto.randomBytes(24).toString('hex');
        tokens.add(token);
        json(res, { errcode: 0, errmsg: 'ok', access_token: token, expires_in: 7200 });
        return;
      }
      case '/cgi-bin/get_jsapi_ticket':
      case '/cgi-bin/ticket/get': {
        if (!tokenOk()) {
          json(res, { errcode: 42001, errmsg: 'access_token expired' });
          return;
        }
        const kind = url.pathname === '/cgi-bin/ticket/get' ? 'agent' : 'corp';
        if (kind === 'agent' && q.get('type') !== 'agent_config') {
          json(res, { errcode: 40097, errmsg: 'invalid args' });
          return;
        }
        tickets[kind] = crypto.randomBytes(32).toString('base64url');
        json(res, { errcode: 0, errmsg: 'ok', ticket: tickets[kind], expires_in: 7200 });
        return;
      }
      case '/cgi-bin/auth/getuserinfo': {
        if (!tokenOk()) {
          json(res, { errcode: 42001, errmsg: 'access_token expired' });
          return;
        }
        const code = q.get('code') ?? '';
        const member = codes.get(code);
        codes.delete(code);
        if (member === undefined) {
          json(res, { errcode: 40029, errmsg: 'invalid code' });
          return;
        }
        json(
          res,
          member
            ? { errcode: 0, errmsg: 'ok', userid: member }
            : { errcode: 0, errmsg: 'ok', openid: 'oXYZ' },
        );
        return;
      }
    }
    res.writeHead(404);
    res.end();
  });
  return Object.assign(fake, { url: server.url, close: () => server.close() });
}
