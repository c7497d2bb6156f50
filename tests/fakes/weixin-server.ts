/**
 * A local stand-in for WeChat's website sign-in: `/connect/qrconnect` (the page the person
 * authorises on; here it answers a redirect to the app's redirect_uri with a fresh code and the
 * state) and `/sns/oauth2/access_token` (code → openid/unionid, checking app id, secret, and that
 * each code is used once).
 */
import crypto from 'node:crypto';
import { type Listening, listen } from './listen.ts';

export interface FakeWeixin {
  url: string;
  appId: string;
  secret: string;
  /** The person who authorises next (their unionid). */
  person: string;
  close(): Promise<void>;
}

export async function startFakeWeixin(): Promise<FakeWeixin> {
  const codes = new Map<string, string>();
  const fake = {
    appId: 'wx5a1b2c3d4e5f6a7b',
    secret: crypto.randomBytes(16).toString('hex'),
    person: 'o6_bmasdasdsad6_2sgVt7hMZOPfL',
  } as FakeWeixin;
  const json = (res: import('node:http').ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server: Listening = await listen((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const q = url.searchParams;
    if (url.pathname === '/connect/qrconnect') {
      if (q.get('appid') !== fake.appId || q.get('scope') !== 'snsapi_login' || !q.get('redirect_uri')) {
        res.writeHead(400);
        res.end('bad appid or scope');
        return;
      }
      const code = crypto.randomBytes(8).toString('hex');
      codes.set(code, fake.person);
      const back = new URL(q.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    if (url.pathname === '/sns/oauth2/access_token') {
      if (q.get('appid') !== fake.appId || q.get('secret') !== fake.secret) {
        json(res, { errcode: 40125, errmsg: 'invalid appsecret' });
        return;
      }
      const person = codes.get(q.get('code') ?? '');
      codes.delete(q.get('code') ?? '');
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
    res.writeHead(404);
    res.end();
  });
  return Object.assign(fake, { url: server.url, close: () => server.close() });
}
