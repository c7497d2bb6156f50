/** WeChat / WeCom sign-in and binding (spec §7 third-party login). */
import { get, post, type RequestOptions } from './request.ts';

const quiet: RequestOptions = { quiet: true };

export interface Binds {
  weixin: boolean;
  wxwork: boolean;
  offered: string[];
  corps: string[];
}

export const thirdApi = {
  offered: () => get<{ weixin: boolean; wxwork: boolean }>('/api/third/offered', quiet),
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
