/**
 * WeChat and WeCom in the browser against local fakes of both providers: a new person signs in with
 * WeChat and another with WeCom from the sign-in screen (OAuth there and back, the client exchanges
 * the sign-in code), an existing account binds WeChat in the user centre by its QR code's link (opened
 * on a "phone": another browser context) and the desktop sees it bound, and a wx.config signature
 * fetched by the page verifies with the fake's checker. Inside the apps: the JS-SDK scripts (served
 * by the fakes, their URLs from env) are configured with our signatures, checked by a stand-in for
 * the native client (`WeixinJSBridge`, whose checks are the fakes' verifiers); WeCom's entry mode
 * (`?mode=wxwork`, automatic sign-in, the entry context switching the screen mode); and binding
 * WeCom in the user centre.
 */
import { type BrowserContext, expect, type Page, request as pwRequest, test } from '@playwright/test';
import { type FakeWeixin, startFakeWeixin } from '../fakes/weixin-server.ts';
import { type FakeWxwork, startFakeWxwork } from '../fakes/wxwork-server.ts';
import { adminApi, shot, signInWithToken } from './helpers.ts';
import { OwnServer } from './own-server.ts';

let server: OwnServer;
let wx: FakeWeixin;
let ww: FakeWxwork;

test.beforeAll(async () => {
  wx = await startFakeWeixin();
  ww = await startFakeWxwork();
  server = await OwnServer.create();
  Object.assign(server.env, {
    PUBLIC_URL: server.url,
    WEIXIN_APPID: wx.appId,
    WEIXIN_SECRET: wx.secret,
    WEIXIN_API_BASE: wx.url,
    WEIXIN_OPEN_BASE: wx.url,
    WXWORK_CORPS: `${ww.corpId}:${ww.agentId}:${ww.secret}`,
    WXWORK_API_BASE: ww.url,
    WXWORK_OPEN_BASE: ww.url,
    WXWORK_LOGIN_BASE: ww.url,
    WEIXIN_JSSDK_URL: `${wx.url}/fake/jweixin.js`,
    WXWORK_JSSDK_URL: `${wx.url}/fake/jweixin.js,${ww.url}/fake/jwxwork.js`,
  });
  await server.start();
});

test.afterAll(async () => {
  await server?.dispose();
  await wx?.close();
  await ww?.close();
});

/**
 * Press a messaging-app sign-in link and wait until its one-time code has become a session: the
 * client takes the code from the address before it exchanges it, so the address alone does not say
 * the exchange is done (leaving the page earlier loses the sign-in).
 */
async function signInWith(page: Page, link: string): Promise<void> {
  const exchanged = page.waitForResponse((r) => r.url().includes('/api/common/user/oauth/id'));
  await page.getByRole('link', { name: link }).click();
  expect((await exchanged).ok()).toBe(true);
  await expect(page).not.toHaveURL(/\/login/);
  // The answer is opened (WebCrypto, asynchronous) and its token stored before the app starts its
  // router; navigating before that would leave the page signed out.
  await page.waitForFunction(() => !!localStorage.getItem('token'));
}

test('new people sign in with WeChat and with WeCom from the sign-in screen', async ({ browser }) => {
  wx.person = 'o6_e2e_new_person_0001';
  const a = await browser.newContext({ locale: 'en-US' });
  const page = await a.newPage();
  await page.goto(`${server.url}/login`);
  await signInWith(page, 'Sign in with WeChat');
  await page.goto(`${server.url}/user`);
  await expect(page.getByText(/^weixin_[0-9a-f]{9}$/)).toBeVisible();
  await a.close();

  const b = await browser.newContext({ locale: 'en-US' });
  const p2 = await b.newPage();
  await p2.goto(`${server.url}/login`);
  await signInWith(p2, 'Sign in with WeCom');
  await p2.goto(`${server.url}/user`);
  await expect(p2.getByText(/^wxwork_ZhangSan_[0-9a-f]{6}$/)).toBeVisible();
  await b.close();
});

test('an existing account binds WeChat by its QR code, then signs in with it', async ({ page, browser }) => {
  const ctx = await pwRequest.newContext({ baseURL: server.url });
  const call = await adminApi(ctx);
  const { _id: project } = await call<{ _id: string }>('/api/common/project/create', { name: 'Bind' });
  await signInWithToken(page, call.token, project);
  await page.goto(`${server.url}/user`);
  await page.getByRole('tab', { name: 'Security settings' }).click();
  await page.getByRole('button', { name: 'Bind WeChat' }).click();
  const qr = page.getByTestId('wechat-qr');
  await expect(qr.locator('canvas, svg').first()).toBeVisible();
  const link = (await page.getByTestId('wechat-bind-link').getAttribute('href')) ?? '';
  expect(link).toContain('/api/third/weixin/main/bind?token=');
  // The phone: another browser scanning the code.
  wx.person = 'o6_e2e_binding_person_0001';
  const phone = await browser.newContext({ locale: 'en-US', userAgent: 'Mozilla/5.0 MicroMessenger/8.0' });
  const pp = await phone.newPage();
  const landed = pp.waitForResponse((r) => r.url().includes('/api/third/weixin/main/callback'));
  await pp.goto(link);
  expect((await landed).headers().location).toContain('bound=weixin');
  // The same code a second time: refused.
  const again = await pp.request.get(link, { maxRedirects: 0 });
  expect((await again.json()).error).toBe(2150);
  await phone.close();
  await expect(page.getByTestId('wechat-bound')).toBeVisible();
  await expect(page.getByTestId('wechat-bind').getByText('Bound successfully')).toBeVisible();

  // Signing in with that WeChat now opens the builder's account.
  const other = await browser.newContext({ locale: 'en-US' });
  const op = await other.newPage();
  await op.goto(`${server.url}/login`);
  await signInWith(op, 'Sign in with WeChat');
  await op.goto(`${server.url}/user`);
  await expect(op.getByText('builder', { exact: true }).first()).toBeVisible();
  await other.close();

  // Unbind from the user centre.
  await page.getByRole('button', { name: 'Unbind WeChat' }).click();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('button', { name: 'Bind WeChat' })).toBeVisible();
  await ctx.dispose();
});

test('the page gets a wx.config signature that the fake WeChat verifies', async ({ page }) => {
  await page.goto(`${server.url}/login`);
  const { data, url } = await page.evaluate(async () => {
    const here = window.location.href;
    const r = await fetch(`/api/third/weixin/main/wxconfig?url=${encodeURIComponent(here)}`);
    return { data: (await r.json()).data, url: here };
  });
  expect(data.appId).toBe(wx.appId);
  const check = await fetch(`${wx.url}/fake/jssdk/verify`, {
    method: 'POST',
    body: JSON.stringify({ ...data, url }),
  });
  expect(await check.json()).toEqual({ ok: true });
});

const WECOM_DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) wxwork/4.1.22 MicroMessenger/7.0.1';
const WECHAT_PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) MicroMessenger/8.0.47';

/** What the JS-SDK scripts hand the native client (wx.config's and wx.agentConfig's fields). */
interface NativeArgs {
  appId: string;
  verifyTimestamp: number;
  verifyNonceStr: string;
  verifySignature: string;
  corpid: string;
  agentid: string;
  timestamp: number;
  nonceStr: string;
  signature: string;
}

/** What the stand-in native client was asked and answered. */
interface ClientLog {
  config: boolean[];
  agent: boolean[];
  entries: string[];
}

/**
 * The messaging app's native side, as the JS-SDK scripts reach it: `WeixinJSBridge.invoke`. Its
 * checks are the fakes' verifiers, over the page's address (as the real client does). `skewUrl`
 * makes it check another address, so a signature for this page must be refused.
 */
async function nativeClient(
  ctx: BrowserContext,
  opts: { kind: 'weixin' | 'wxwork'; entry?: string; skewUrl?: boolean },
): Promise<ClientLog> {
  const log: ClientLog = { config: [], agent: [], entries: [] };
  let agentOk = false;
  await ctx.exposeBinding('__nativeClient', async ({ page }, name: string, raw: unknown) => {
    const a = raw as NativeArgs;
    const url = page.url().split('#')[0]! + (opts.skewUrl ? 'x' : '');
    if (name === 'preVerifyJSAPI') {
      const c = { timestamp: a.verifyTimestamp, nonceStr: a.verifyNonceStr, signature: a.verifySignature };
      const ok =
        opts.kind === 'weixin'
          ? a.appId === wx.appId && wx.verify({ ...c, appId: a.appId }, url)
          : a.appId === ww.corpId && ww.verify(c, url, 'corp');
      log.config.push(ok);
      return { err_msg: ok ? 'pre_verify_jsapi:ok' : 'pre_verify_jsapi:fail' };
    }
    if (name === 'agentConfig') {
      agentOk = a.corpid === ww.corpId && a.agentid === ww.agentId && ww.verify(a, url, 'agent');
      log.agent.push(agentOk);
      return { err_msg: agentOk ? 'agentConfig:ok' : 'agentConfig:fail' };
    }
    if (name === 'getContext') {
      if (!agentOk) return { err_msg: 'getContext:fail no permission' };
      log.entries.push(opts.entry ?? 'normal');
      return { err_msg: 'getContext:ok', entry: opts.entry ?? 'normal' };
    }
    return { err_msg: `${name}:fail unknown` };
  });
  await ctx.addInitScript(() => {
    const w = window as unknown as {
      WeixinJSBridge: unknown;
      __nativeClient(n: string, a: unknown): Promise<unknown>;
    };
    w.WeixinJSBridge = {
      invoke: (n: string, a: unknown, cb: (r: unknown) => void) => void w.__nativeClient(n, a).then(cb),
    };
  });
  return log;
}

test('inside WeChat the JS-SDK loads from the configured URL and our signature passes the client', async ({
  browser,
}) => {
  const ctx = await browser.newContext({
    locale: 'en-US',
    userAgent: WECHAT_PHONE,
    viewport: { width: 390, height: 844 },
  });
  const log = await nativeClient(ctx, { kind: 'weixin' });
  const page = await ctx.newPage();
  const script = page.waitForResponse((r) => r.url() === `${wx.url}/fake/jweixin.js`);
  await page.goto(`${server.url}/login`);
  expect((await script).status()).toBe(200);
  await expect(page.locator('html')).toHaveAttribute('data-jssdk', 'ready');
  expect(log.config).toEqual([true]);
  await ctx.close();

  // A client checking another address refuses the signature: the page says it failed.
  const skew = await browser.newContext({ locale: 'en-US', userAgent: WECHAT_PHONE });
  const refused = await nativeClient(skew, { kind: 'weixin', skewUrl: true });
  const p2 = await skew.newPage();
  await p2.goto(`${server.url}/login`);
  await expect(p2.locator('html')).toHaveAttribute('data-jssdk', 'failed');
  expect(refused.config).toEqual([false]);
  await skew.close();
});

test('WeCom entry: ?mode=wxwork signs in by itself, configures the JS-SDK, and the entry context sets the mode', async ({
  browser,
}) => {
  ww.member = 'WangWu';
  const ctx = await browser.newContext({
    locale: 'en-US',
    userAgent: WECOM_DESKTOP,
    viewport: { width: 1280, height: 800 },
  });
  // Opened from a chat's toolbar: not the normal entry, so the desktop client shows the mobile view.
  const log = await nativeClient(ctx, { kind: 'wxwork', entry: 'single_chat_tools' });
  const page = await ctx.newPage();
  const authorised = page.waitForRequest((r) => r.url().startsWith(`${ww.url}/connect/oauth2/authorize`));
  await page.goto(`${server.url}/login?mode=wxwork`);
  // The in-app authorise page (WeCom's browser), no button pressed.
  await authorised;
  // Reloaded with mode=mobile (the option is consumed and stored).
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('lc_screen_mode')).catch(() => null), {
      timeout: 30_000,
    })
    .toBe('mobile');
  await expect(page.locator('html')).toHaveAttribute('data-jssdk', 'ready', { timeout: 20_000 });
  await expect(page).not.toHaveURL(/\/login/);
  expect(log.config.every(Boolean) && log.config.length > 0).toBe(true);
  expect(log.agent.every(Boolean) && log.agent.length > 0).toBe(true);
  expect(log.entries[0]).toBe('single_chat_tools');
  const me = await page.evaluate(async () => {
    const token = localStorage.getItem('token') ?? '';
    const r = await fetch('/api/common/user/userInfo', { headers: { token } });
    return (await r.json()) as { data?: { account?: string } };
  });
  expect(me.data?.account ?? '').toMatch(/^wxwork_WangWu_[0-9a-f]{6}$/);
  await ctx.close();

  // The normal entry on the desktop client: shown as desktop (a mobile view switches back to pc).
  const normal = await browser.newContext({ locale: 'en-US', userAgent: WECOM_DESKTOP });
  const log2 = await nativeClient(normal, { kind: 'wxwork', entry: 'normal' });
  const p2 = await normal.newPage();
  await p2.goto(`${server.url}/login?mode=mobile`);
  await expect
    .poll(() => p2.evaluate(() => localStorage.getItem('lc_screen_mode')).catch(() => null), {
      timeout: 30_000,
    })
    .toBe('pc');
  expect(log2.entries).toContain('normal');
  await normal.close();
  ww.member = 'ZhangSan';
});

test('an existing account binds WeCom in the user centre by its QR code, then signs in with it', async ({
  page,
  browser,
}) => {
  const ctx = await pwRequest.newContext({ baseURL: server.url });
  const call = await adminApi(ctx);
  const { _id: project } = await call<{ _id: string }>('/api/common/project/create', { name: 'WeComBind' });
  await signInWithToken(page, call.token, project);
  await page.goto(`${server.url}/user`);
  await page.getByRole('tab', { name: 'Security settings' }).click();
  await expect(page.getByTestId('wxwork-bind')).toContainText('WeCom binding');
  await page.getByRole('button', { name: 'Bind WeCom' }).click();
  const qr = page.getByTestId('wxwork-qr');
  await expect(qr.locator('canvas, svg').first()).toBeVisible();
  await expect(qr).toContainText('Scan this code with WeCom');
  await shot(page, 'user-wxwork-bind-qr');
  const link = (await page.getByTestId('wxwork-bind-link').getAttribute('href')) ?? '';
  expect(link).toContain('/api/third/wxwork/main/bind?token=');
  // The phone: WeCom's browser opening the code.
  ww.member = 'LiSi';
  const phone = await browser.newContext({
    locale: 'en-US',
    userAgent: 'Mozilla/5.0 (iPhone) wxwork/4.1 MicroMessenger/7.0',
  });
  const pp = await phone.newPage();
  const landed = pp.waitForResponse((r) => r.url().includes('/api/third/wxwork/callback'));
  await pp.goto(link);
  expect((await landed).headers().location).toContain('bound=wxwork');
  const again = await pp.request.get(link, { maxRedirects: 0 });
  expect((await again.json()).error).toBe(2150);
  await phone.close();
  await expect(page.getByTestId('wxwork-bound')).toBeVisible();
  await expect(page.getByTestId('wxwork-bind').getByText('Bound successfully')).toBeVisible();
  await shot(page, 'user-wxwork-bound');

  // Signing in with that WeCom member now opens the builder's account.
  const other = await browser.newContext({ locale: 'en-US' });
  const op = await other.newPage();
  await op.goto(`${server.url}/login`);
  await signInWith(op, 'Sign in with WeCom');
  await op.goto(`${server.url}/user`);
  await expect(op.getByText('builder', { exact: true }).first()).toBeVisible();
  await other.close();
  ww.member = 'ZhangSan';

  await page.getByRole('button', { name: 'Unbind WeCom' }).click();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('button', { name: 'Bind WeCom' })).toBeVisible();
  await ctx.dispose();
});
