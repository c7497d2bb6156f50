/**
 * WeChat and WeCom in the browser against local fakes of both providers: a new person signs in with
 * WeChat and another with WeCom from the sign-in screen (OAuth there and back, the client exchanges
 * the sign-in code), an existing account binds WeChat in the user centre by its QR code's link (opened
 * on a "phone": another browser context) and the desktop sees it bound, and a wx.config signature
 * fetched by the page verifies with the fake's checker.
 */
import { expect, request as pwRequest, test } from '@playwright/test';
import { type FakeWeixin, startFakeWeixin } from '../fakes/weixin-server.ts';
import { type FakeWxwork, startFakeWxwork } from '../fakes/wxwork-server.ts';
import { adminApi, signInWithToken } from './helpers.ts';
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
  });
  await server.start();
});

test.afterAll(async () => {
  await server?.dispose();
  await wx?.close();
  await ww?.close();
});

test('new people sign in with WeChat and with WeCom from the sign-in screen', async ({ browser }) => {
  wx.person = 'o6_e2e_new_person_0001';
  const a = await browser.newContext({ locale: 'en-US' });
  const page = await a.newPage();
  await page.goto(`${server.url}/login`);
  await page.getByRole('link', { name: 'Sign in with WeChat' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(`${server.url}/user`);
  await expect(page.getByText(/^weixin_[0-9a-f]{9}$/)).toBeVisible();
  await a.close();

  const b = await browser.newContext({ locale: 'en-US' });
  const p2 = await b.newPage();
  await p2.goto(`${server.url}/login`);
  await p2.getByRole('link', { name: 'Sign in with WeCom' }).click();
  await expect(p2).not.toHaveURL(/\/login/);
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
  await expect(page.getByText('Bound successfully')).toBeVisible();

  // Signing in with that WeChat now opens the builder's account.
  const other = await browser.newContext({ locale: 'en-US' });
  const op = await other.newPage();
  await op.goto(`${server.url}/login`);
  await op.getByRole('link', { name: 'Sign in with WeChat' }).click();
  await expect(op).not.toHaveURL(/\/login/);
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
