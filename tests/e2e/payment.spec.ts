/**
 * The upgrade wizard in the browser against local fakes of Alipay and WeChat Pay v3: an owner
 * upgrades a new trial project to basics with Alipay (the order is reused on a second try), pays
 * in the fake cashier's window, and sees "Paid" and the new version; then to enterprise with WeChat
 * Pay, whose QR code the fake "phone" pays. The user centre lists both orders as paid.
 */
import { expect, request as pwRequest, test } from '@playwright/test';
import { type FakeAlipay, startFakeAlipay } from '../fakes/alipay-gateway.ts';
import { type FakeWxpay, startFakeWxpay } from '../fakes/wxpay-server.ts';
import { adminApi, signInWithToken } from './helpers.ts';
import { OwnServer } from './own-server.ts';

let server: OwnServer;
let ali: FakeAlipay;
let wx: FakeWxpay;

test.beforeAll(async () => {
  ali = await startFakeAlipay();
  wx = await startFakeWxpay();
  server = await OwnServer.create();
  Object.assign(server.env, {
    PUBLIC_URL: server.url,
    ALIPAY_APP_ID: ali.appId,
    ALIPAY_PRIVATE_KEY: ali.merchant.privateKey,
    ALIPAY_PUBLIC_KEY: ali.alipayPublicKey,
    ALIPAY_GATEWAY: ali.gateway,
    WXPAY_MCH_ID: wx.mchId,
    WXPAY_APP_ID: wx.appId,
    WXPAY_SERIAL_NO: wx.merchantSerial,
    WXPAY_PRIVATE_KEY: wx.merchant.privateKey,
    WXPAY_API_V3_KEY: wx.apiV3Key,
    WXPAY_PLATFORM_PUBLIC_KEY: wx.platform.publicKey,
    WXPAY_PLATFORM_SERIAL: wx.platformSerial,
    WXPAY_BASE_URL: wx.url,
  });
  await server.start();
});

test.afterAll(async () => {
  await server?.dispose();
  await ali?.close();
  await wx?.close();
});

test('an owner upgrades through the wizard with Alipay, then WeChat Pay', async ({ page }) => {
  const ctx = await pwRequest.newContext({ baseURL: server.url });
  const call = await adminApi(ctx);
  // A new project starts on the trial version (the Demo project is already on the top one).
  const { _id: project } = await call<{ _id: string }>('/api/common/project/create', { name: 'Shop' });
  await signInWithToken(page, call.token, project);

  await page.goto(`${server.url}/upgrade`);
  await expect(page.getByTestId('upgrade-current')).toContainText('Current version: test');
  // Step 0: basics and Alipay are the defaults.
  await expect(page.getByTestId('tier-basics').getByRole('button', { name: 'Chosen' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Alipay' })).toBeChecked();
  await page.getByRole('button', { name: 'Next: place the order' }).click();
  const orderCard = page.getByTestId('upgrade-order');
  await expect(orderCard).toContainText('¥899');
  const firstId =
    (await orderCard.locator('.ant-descriptions-item-content').first().textContent())?.trim() ?? '';
  expect(firstId).toMatch(/^[0-9a-f]{24}$/);
  // A second try the same day: the unpaid order is reused.
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: 'Next: place the order' }).click();
  await expect(orderCard).toContainText('used again');
  await expect(orderCard).toContainText(firstId);

  // Step 2: the cashier opens in a new window; paying there notifies our server.
  const popupPromise = page.waitForEvent('popup');
  await orderCard.getByRole('button', { name: 'Pay now' }).click();
  const cashier = await popupPromise;
  await expect(cashier.getByRole('heading', { name: 'Fake Alipay cashier' })).toBeVisible();
  await expect(cashier.getByTestId('amount')).toHaveText('899.00');
  await expect(page.getByTestId('upgrade-paying')).toBeVisible();
  await cashier.getByRole('button', { name: 'Pay now' }).click();
  await cashier.waitForURL(`${server.url}/upgrade?order=${firstId}`);
  await cashier.close();
  await expect(page.getByTestId('upgrade-paid')).toContainText('Paid');
  await expect(page.getByTestId('upgrade-paid')).toContainText('Basic');
  await expect(page.getByTestId('upgrade-current')).toContainText('Current version: Basic');

  // Enterprise with WeChat Pay: the QR code's payment URL, paid from the fake "phone".
  await page.goto(`${server.url}/upgrade?version=enterprise&payType=wxpay`);
  await expect(page.getByTestId('tier-enterprise').getByRole('button', { name: 'Chosen' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'WeChat Pay' })).toBeChecked();
  await page.getByRole('button', { name: 'Next: place the order' }).click();
  await expect(orderCard).toContainText('¥9,800');
  const wxId =
    (await orderCard.locator('.ant-descriptions-item-content').first().textContent())?.trim() ?? '';
  await orderCard.getByRole('button', { name: 'Pay now' }).click();
  await expect(page.getByTestId('upgrade-pay-url')).toContainText('weixin://wxpay/bizpayurl?pr=');
  await expect(page.getByTestId('upgrade-paying').locator('canvas, svg').first()).toBeVisible();
  const scanned = await fetch(`${wx.url}/fake/pay/${wxId}`, { method: 'POST' });
  expect(await scanned.text()).toBe('204');
  await expect(page.getByTestId('upgrade-paid')).toContainText('Enterprise');
  await expect(page.getByTestId('upgrade-current')).toContainText('Current version: Enterprise');

  // The user centre's order list.
  await page.goto(`${server.url}/user`);
  await page.getByRole('tab', { name: 'My orders' }).click();
  const list = page.getByTestId('order-list');
  await expect(list.getByRole('row', { name: new RegExp(firstId) })).toContainText('Paid');
  await expect(list.getByRole('row', { name: new RegExp(wxId) })).toContainText('Paid');
  await ctx.dispose();
});
