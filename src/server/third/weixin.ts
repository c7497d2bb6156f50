/**
 * WeChat website sign-in (OAuth 2.0, "QR connect"): the browser goes to the qrconnect page with our
 * app id, redirect URI and a single-use state; WeChat sends it back with a code, which the server
 * exchanges (app id + secret) for the person's openid / unionid.
 */
import type { WeixinConfig } from '../config.ts';

export class WeixinError extends Error {}

export function weixinAuthorizeUrl(c: WeixinConfig, redirectUri: string, state: string): string {
  const q = new URLSearchParams({
    appid: c.appId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'snsapi_login',
    state,
  });
  return `${c.openBase}/connect/qrconnect?${q.toString()}#wechat_redirect`;
}

/** The code's person: unionid when the app has one (same person across apps), else openid. */
export async function weixinExchange(c: WeixinConfig, code: string, timeoutMs = 10_000): Promise<string> {
  const q = new URLSearchParams({ appid: c.appId, secret: c.secret, code, grant_type: 'authorization_code' });
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
