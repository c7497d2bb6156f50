/**
 * WeChat website sign-in (OAuth 2.0, "QR connect"): the browser goes to the qrconnect page with our
 * app id, redirect URI and a single-use state; WeChat sends it back with a code, which the server
 * exchanges (app id + secret) for the person's openid / unionid.
 */
import crypto from 'node:crypto';
import type { WeixinConfig } from '../config.ts';
import type { TokenCache } from './token-cache.ts';

export class WeixinError extends Error {}

/** One WeChat app: the main one, or a custom build's (project config weixinAppid). */
export interface WeixinApp {
  appId: string;
  secret: string;
  /** `web`: website QR connect (snsapi_login); `mp`: inside WeChat (official account, snsapi_userinfo). */
  type: 'web' | 'mp';
}

export function weixinAuthorizeUrl(
  c: WeixinConfig,
  redirectUri: string,
  state: string,
  app: WeixinApp = { appId: c.appId, secret: c.secret, type: 'web' },
): string {
  const q = new URLSearchParams({
    appid: app.appId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: app.type === 'mp' ? 'snsapi_userinfo' : 'snsapi_login',
    state,
  });
  const page = app.type === 'mp' ? 'connect/oauth2/authorize' : 'connect/qrconnect';
  return `${c.openBase}/${page}?${q.toString()}#wechat_redirect`;
}

/** GET a provider's JSON; errcode ≠ 0 or a network failure is a WeixinError (errcode kept). */
export async function providerJson<T>(url: string, init: RequestInit = {}, timeoutMs = 10_000): Promise<T> {
  let json: T & { errcode?: unknown; errmsg?: unknown };
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    json = (await res.json()) as typeof json;
  } catch (e) {
    throw new WeixinError(`provider unreachable: ${(e as Error).message}`);
  }
  if (json.errcode) {
    const err = new WeixinError(`provider: ${String(json.errmsg ?? json.errcode)}`);
    (err as WeixinError & { errcode?: unknown }).errcode = json.errcode;
    throw err;
  }
  return json;
}

/** errcodes meaning "the access token is invalid or expired": fetch a new one and try once more. */
const STALE_TOKEN = new Set([40001, 40014, 42001]);
export const isStaleToken = (e: unknown): boolean =>
  e instanceof WeixinError && STALE_TOKEN.has(Number((e as WeixinError & { errcode?: unknown }).errcode));

/** An official account's jsapi_ticket (through its cached access token), itself cached. */
export async function weixinJsapiTicket(
  c: WeixinConfig,
  cache: TokenCache,
  appId: string,
  secret: string,
): Promise<string> {
  const tokenKey = `weixin:token:${appId}`;
  const token = () =>
    cache.get(tokenKey, async () => {
      const q = new URLSearchParams({ grant_type: 'client_credential', appid: appId, secret });
      const j = await providerJson<{ access_token?: string; expires_in?: number }>(
        `${c.apiBase}/cgi-bin/token?${q.toString()}`,
      );
      if (!j.access_token) throw new WeixinError('provider: no access_token');
      return { value: j.access_token, expiresIn: Number(j.expires_in) || 7200 };
    });
  return cache.get(`weixin:jsapi:${appId}`, async () => {
    const ask = (accessToken: string) => {
      const q = new URLSearchParams({ access_token: accessToken, type: 'jsapi' });
      return providerJson<{ ticket?: string; expires_in?: number }>(
        `${c.apiBase}/cgi-bin/ticket/getticket?${q.toString()}`,
      );
    };
    const used = await token();
    let j: { ticket?: string; expires_in?: number };
    try {
      j = await ask(used);
    } catch (e) {
      // The cached token was refused: drop it (unless already replaced) and try once more.
      if (!isStaleToken(e)) throw e;
      await cache.reject(tokenKey, used);
      j = await ask(await token());
    }
    if (!j.ticket) throw new WeixinError('provider: no ticket');
    return { value: j.ticket, expiresIn: Number(j.expires_in) || 7200 };
  });
}

/**
 * The JS-SDK signature (WeChat and WeCom use the same rule): sha1 over
 * `jsapi_ticket=…&noncestr=…&timestamp=…&url=…` (keys in this order, the URL without its #fragment).
 */
export function jsSdkSign(
  ticket: string,
  url: string,
  now = Date.now(),
): { timestamp: number; nonceStr: string; signature: string } {
  const timestamp = Math.floor(now / 1000);
  const nonceStr = crypto.randomBytes(8).toString('hex');
  const plain = `jsapi_ticket=${ticket}&noncestr=${nonceStr}&timestamp=${timestamp}&url=${url.split('#')[0]}`;
  return { timestamp, nonceStr, signature: crypto.createHash('sha1').update(plain).digest('hex') };
}

/** The code's person: unionid when the app has one (same person across apps), else openid. */
export async function weixinExchange(
  c: WeixinConfig,
  code: string,
  timeoutMs = 10_000,
  app: { appId: string; secret: string } = c,
): Promise<string> {
  const q = new URLSearchParams({
    appid: app.appId,
    secret: app.secret,
    code,
    grant_type: 'authorization_code',
  });
  let json: { openid?: unknown; unionid?: unknown; errcode?: unknown; errmsg?: unknown };
  try {
    const res = await fetch(`${c.apiBase}/sns/oauth2/access_token?${q.toString()}`, {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    json = (await res.json()) as typeof json;
  } catch (e) {
    throw new WeixinError(`weixin unreachable: ${(e as Error).message}`);
  }
  if (json.errcode) throw new WeixinError(`weixin: ${String(json.errmsg ?? json.errcode)}`);
  const subject = typeof json.unionid === 'string' && json.unionid ? json.unionid : json.openid;
  if (typeof subject !== 'string' || !subject || subject.length > 128)
    throw new WeixinError('weixin: no openid');
  return subject;
}
