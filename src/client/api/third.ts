/** WeChat / WeCom sign-in and binding (spec §7 third-party login). */
import { get, post, type RequestOptions } from './request.ts';

const quiet: RequestOptions = { quiet: true };

export interface Binds {
  weixin: boolean;
  wxwork: boolean;
  offered: string[];
  corps: string[];
}

export interface Offered {
  weixin: boolean;
  wxwork: boolean;
  /** The JS-SDK scripts: WeChat's, and WeCom's (in load order). */
  jssdk: { weixin: string | null; wxwork: string[] };
  corps: string[];
}

/** A JS-SDK signature (`wx.config`). */
export interface JsConfig {
  appId: string;
  timestamp: number;
  nonceStr: string;
  signature: string;
}

export const thirdApi = {
  offered: () => get<Offered>('/api/third/offered', quiet),
  wxconfig: (url: string) =>
    get<JsConfig>(`/api/third/weixin/main/wxconfig?url=${encodeURIComponent(url)}`, quiet),
  jsconfig: (corpid: string, url: string) =>
    post<JsConfig>(`/api/third/wxwork/main/jsconfig/${encodeURIComponent(corpid)}`, { url }, quiet),
  jsagentconfig: (corpid: string, url: string) =>
    post<{ corpid: string; agentid: string; timestamp: number; nonceStr: string; signature: string }>(
      `/api/third/wxwork/main/jsagentconfig/${encodeURIComponent(corpid)}`,
      { url },
      quiet,
    ),
  wxworkProject: (corpid: string) =>
    get<{ corpid: string; agentid: string; project: { _id: string; name: string } | null; loginUrl: string }>(
      `/api/third/wxwork/main/project/${encodeURIComponent(corpid)}`,
      quiet,
    ),
  binds: () => get<Binds>('/api/third/binds', quiet),
  startBind: (provider: 'weixin' | 'wxwork', redirect: string) =>
    post<{ token: string; url: string; expiresAt: number }>(
      `/api/third/${provider}/main/bind`,
      { redirect },
      quiet,
    ),
  bindStatus: (provider: 'weixin' | 'wxwork', token: string) =>
    get<{ status: 'waiting' | 'scanned' | 'bound'; expiresAt: number }>(
      `/api/third/${provider}/main/bind/token/${encodeURIComponent(token)}`,
      { quiet: true, share: false },
    ),
  unbind: (provider: 'weixin' | 'wxwork') =>
    post<{ unbound: boolean }>(`/api/third/${provider}/main/unbind`, {}, quiet),
};

/** Where the browser goes to sign in with the messaging app, coming back to `redirect`. */
export const signInUrl = (provider: 'weixin' | 'wxwork', redirect: string): string =>
  provider === 'weixin'
    ? `/api/third/weixin/main/login?redirect=${encodeURIComponent(redirect)}`
    : `/api/third/wxwork/login?redirect=${encodeURIComponent(redirect)}`;
