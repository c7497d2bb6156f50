/**
 * The messaging apps' JS-SDK inside WeChat and WeCom (spec §2, §7): the script URLs come from the
 * server (`/api/third/offered`, set by WEIXIN_JSSDK_URL / WXWORK_JSSDK_URL), `wx.config` is signed by
 * `weixin/main/wxconfig` (WeChat) or `wxwork/main/jsconfig/{corpid}` (WeCom), and in WeCom also
 * `wx.agentConfig` by `jsagentconfig/{corpid}`. In the WeCom desktop client the entry context is read
 * (`getContext`): a normal entry seen as mobile reloads with mode=pc, another entry seen as desktop
 * reloads with mode=mobile (navigation's `wxworkSwitch`).
 *
 * How far it got is written on the document root as `data-jssdk` (loading, ready, failed) so that
 * styles and tests can see it; nothing else depends on it.
 */
import { getToken } from '../api/storage.ts';
import { type Offered, thirdApi } from '../api/third.ts';
import { type ScreenMode, wxworkSwitch } from '../shell/navigation.ts';

/** What the JS-SDK scripts put on `window.wx` (the parts used here). */
interface Wx {
  config(c: Record<string, unknown>): void;
  ready(fn: () => void): void;
  error(fn: (res: { errMsg?: string }) => void): void;
  invoke(name: string, args: Record<string, unknown>, cb: (res: Record<string, unknown>) => void): void;
  agentConfig?(c: Record<string, unknown>): void;
}

const loaded = new Map<string, Promise<void>>();

/** Add a script once; resolves when it has run. */
export function loadScript(src: string): Promise<void> {
  let p = loaded.get(src);
  if (!p) {
    p = new Promise<void>((resolve, reject) => {
      const s = document.createElement('script');
      s.src = src;
      s.async = true;
      s.onload = () => resolve();
      s.onerror = () => {
        loaded.delete(src);
        reject(new Error(`JS-SDK script failed to load: ${src}`));
      };
      document.head.appendChild(s);
    });
    loaded.set(src, p);
  }
  return p;
}

function theWx(): Wx {
  const wx = (window as unknown as { wx?: Wx }).wx;
  if (!wx) throw new Error('the JS-SDK script did not define wx');
  return wx;
}

/** The page address the signature covers: without its #fragment. */
const pageUrl = () => window.location.href.split('#')[0]!;

/** `wx.config` with a signature, answered by `wx.ready` or `wx.error`. */
function configure(wx: Wx, c: Record<string, unknown>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    wx.ready(() => resolve());
    wx.error((res) => reject(new Error(res?.errMsg ?? 'wx.config failed')));
    wx.config(c);
  });
}

/** Inside WeChat: load the JS-SDK and configure it for this page. */
export async function weixinReady(script: string): Promise<Wx> {
  await loadScript(script);
  const wx = theWx();
  const signed = await thirdApi.wxconfig(pageUrl());
  await configure(wx, { ...signed, jsApiList: ['updateAppMessageShareData', 'scanQRCode'] });
  return wx;
}

/** Inside WeCom: load the scripts in order, then `wx.config` and `wx.agentConfig` for the corp. */
export async function wxworkReady(scripts: string[], corpid: string): Promise<Wx> {
  for (const s of scripts) await loadScript(s);
  const wx = theWx();
  const url = pageUrl();
  const signed = await thirdApi.jsconfig(corpid, url);
  await configure(wx, { beta: true, ...signed, jsApiList: ['getContext'] });
  const agent = await thirdApi.jsagentconfig(corpid, url);
  if (!wx.agentConfig) throw new Error('the WeCom script did not define wx.agentConfig');
  await new Promise<void>((resolve, reject) => {
    wx.agentConfig!({
      ...agent,
      jsApiList: ['getContext'],
      success: () => resolve(),
      fail: (res: { err_msg?: string; errMsg?: string }) =>
        reject(new Error(res?.err_msg ?? res?.errMsg ?? 'wx.agentConfig failed')),
    });
  });
  return wx;
}

/** The WeCom entry context (`normal`, `single_chat_tools`, …). */
export function wxworkEntry(wx: Wx): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    wx.invoke('getContext', {}, (res) => {
      if (res.err_msg === 'getContext:ok' && typeof res.entry === 'string') resolve(res.entry);
      else reject(new Error(String(res.err_msg ?? 'getContext failed')));
    });
  });
}

export type MessagingApp = 'weixin' | 'wxwork' | null;

/** Which messaging app's browser this is (WeCom's also says MicroMessenger). */
export function messagingApp(userAgent: string): MessagingApp {
  if (/wxwork/i.test(userAgent)) return 'wxwork';
  if (/micromessenger/i.test(userAgent)) return 'weixin';
  return null;
}

/** A desktop client (not a phone's). */
export const onDesktop = (userAgent: string): boolean => !/android|iphone|ipad|ipod|mobile/i.test(userAgent);

function mark(state: 'loading' | 'ready' | 'failed'): void {
  document.documentElement.dataset.jssdk = state;
}

/**
 * At start inside WeChat or WeCom: load and configure the JS-SDK; in the WeCom desktop client apply
 * the entry context to the screen mode (reloading with `mode=` when it changes). Outside those
 * apps, or when the server offers neither, nothing happens.
 */
export async function startMessagingApp(mode: () => ScreenMode): Promise<void> {
  const ua = navigator.userAgent;
  const inApp = messagingApp(ua);
  if (!inApp) return;
  let offered: Offered;
  try {
    offered = await thirdApi.offered();
  } catch {
    return;
  }
  const corpid = offered.corps[0];
  if (inApp === 'wxwork' ? !offered.wxwork || !corpid : !offered.jssdk.weixin) return;
  mark('loading');
  try {
    if (inApp === 'weixin') {
      await weixinReady(offered.jssdk.weixin!);
      mark('ready');
      return;
    }
    const wx = await wxworkReady(offered.jssdk.wxwork, corpid!);
    mark('ready');
    // The entry context applies to the signed-in app (a sign-in trip in progress comes back here).
    if (!onDesktop(ua) || !getToken()) return;
    const to = wxworkSwitch(await wxworkEntry(wx), mode());
    if (to) {
      const next = new URL(window.location.href);
      next.searchParams.set('mode', to);
      window.location.replace(next.toString());
    }
  } catch (e) {
    console.warn('messaging-app JS-SDK:', (e as Error).message);
    mark('failed');
  }
}
