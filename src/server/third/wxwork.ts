/**
 * WeCom (企业微信) self-built apps: sign-in (inside WeCom: the oauth2 authorize page, scope snsapi_base;
 * on a desktop browser: the QR sign-in page), code → member user id through the corp's access token,
 * and the two JS-SDK tickets (the corp's jsapi_ticket for `wx.config`, the app's for `wx.agentConfig`).
 */
import type { WxworkConfig, WxworkCorp } from '../config.ts';
import type { TokenCache } from './token-cache.ts';
import { isStaleToken, providerJson, WeixinError } from './weixin.ts';

export function wxworkCorp(c: WxworkConfig | undefined, corpId: string): WxworkCorp | undefined {
  return c?.corps.find((x) => x.corpId === corpId);
}

export function wxworkAuthorizeUrl(
  c: WxworkConfig,
  corp: WxworkCorp,
  redirectUri: string,
  state: string,
  inApp: boolean,
): string {
  if (inApp) {
    const q = new URLSearchParams({
      appid: corp.corpId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'snsapi_base',
      state,
      agentid: corp.agentId,
    });
    return `${c.openBase}/connect/oauth2/authorize?${q.toString()}#wechat_redirect`;
  }
  const q = new URLSearchParams({
    login_type: 'CorpApp',
    appid: corp.corpId,
    agentid: corp.agentId,
    redirect_uri: redirectUri,
    state,
  });
  return `${c.loginBase}/wwlogin/sso/login?${q.toString()}`;
}

/** Call a corp API with its cached access token; a stale token is dropped and the call tried again. */
async function withToken<T>(
  c: WxworkConfig,
  cache: TokenCache,
  corp: WxworkCorp,
  call: (token: string) => Promise<T>,
): Promise<T> {
  const key = `wxwork:token:${corp.corpId}:${corp.agentId}`;
  const token = () =>
    cache.get(key, async () => {
      const q = new URLSearchParams({ corpid: corp.corpId, corpsecret: corp.secret });
      const j = await providerJson<{ access_token?: string; expires_in?: number }>(
        `${c.apiBase}/cgi-bin/gettoken?${q.toString()}`,
      );
      if (!j.access_token) throw new WeixinError('provider: no access_token');
      return { value: j.access_token, expiresIn: Number(j.expires_in) || 7200 };
    });
  const used = await token();
  try {
    return await call(used);
  } catch (e) {
    // The cached token was refused: drop it (unless already replaced) and try once more.
    if (!isStaleToken(e)) throw e;
    await cache.reject(key, used);
    return call(await token());
  }
}

/** The corp's (`corp`) or the app's (`agent`) JS-SDK ticket, cached. */
export function wxworkTicket(
  c: WxworkConfig,
  cache: TokenCache,
  corp: WxworkCorp,
  kind: 'corp' | 'agent',
): Promise<string> {
  return cache.get(`wxwork:${kind}:${corp.corpId}:${corp.agentId}`, () =>
    withToken(c, cache, corp, async (token) => {
      const url =
        kind === 'corp'
          ? `${c.apiBase}/cgi-bin/get_jsapi_ticket?access_token=${encodeURIComponent(token)}`
          : `${c.apiBase}/cgi-bin/ticket/get?access_token=${encodeURIComponent(token)}&type=agent_config`;
      const j = await providerJson<{ ticket?: string; expires_in?: number }>(url);
      if (!j.ticket) throw new WeixinError('provider: no ticket');
      return { value: j.ticket, expiresIn: Number(j.expires_in) || 7200 };
    }),
  );
}

/** The sign-in code's member: their user id in the corp; undefined for a non-member (openid only). */
export function wxworkUserId(
  c: WxworkConfig,
  cache: TokenCache,
  corp: WxworkCorp,
  code: string,
): Promise<string | undefined> {
  return withToken(c, cache, corp, async (token) => {
    const q = new URLSearchParams({ access_token: token, code });
    const j = await providerJson<{ userid?: unknown; UserId?: unknown }>(
      `${c.apiBase}/cgi-bin/auth/getuserinfo?${q.toString()}`,
    );
    const id = j.userid ?? j.UserId;
    return typeof id === 'string' && id && id.length <= 64 ? id : undefined;
  });
}
