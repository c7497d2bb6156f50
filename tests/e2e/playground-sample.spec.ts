/**
 * "New system from a sample" (issue 26 item 2), as a new builder does it: in the workbench, pick the
 * phone shop among the samples, name the system, and land on its pages — the same pages as the
 * sample's; the designer opens one; the published home page draws its goods from the copy's tables.
 * The builder is a fresh account (not in the demo project), so what they see can only be the copy.
 */
import { expect, test } from '@playwright/test';
import {
  adminApi,
  DESKTOP,
  PHONE,
  registerByApi,
  shot,
  signInWithToken,
  uniqueAccount,
  uniquePhone,
} from './helpers.ts';

test.use({ actionTimeout: 20_000 });

test('a new builder starts a system from the mall sample and gets its pages, designer and goods', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const user = uniqueAccount('sample');
  await registerByApi(request, { user, pwd: 'sample123', phone: uniquePhone(), nickname: 'Sampler' });
  const call = await adminApi(request, { user, pwd: 'sample123' });
  const samples = await call<{ app: string; title: { en: string }; pages: string[] }[]>(
    '/api/common/playground/samples',
  );
  const mall = samples.find((s) => s.app === 'mall-index')!;

  const ctx = await browser.newContext({ viewport: DESKTOP });
  await signInWithToken(ctx, call.token, '');
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));

  await page.goto('/dev');
  await page.getByTestId('new-from-sample').click();
  const dialog = page.getByRole('dialog', { name: 'New system from a sample' });
  await expect(dialog.getByLabel('Kanban board')).toBeVisible();
  await dialog.getByLabel('Phone shop').check();
  // The name follows the chosen sample; the builder gives their own.
  await expect(dialog.getByTestId('sample-project-name')).toHaveValue('Phone shop');
  await dialog.getByTestId('sample-project-name').fill(`My shop ${user}`);
  await shot(page, 'sample-choose');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/dev\/pages$/, { timeout: 90_000 });
  await expect(page.getByTestId('project-switcher')).toContainText(`My shop ${user}`);

  // The same pages as the sample's.
  const list = page.getByTestId('page-list');
  await expect(list.getByTestId('page-name')).toHaveCount(mall.pages.length);
  expect((await list.getByTestId('page-name').allTextContents()).sort()).toEqual([...mall.pages].sort());
  await shot(page, 'sample-pages');

  // The designer opens the home page.
  await list.getByRole('link', { name: '商城首页 / Mall home' }).click();
  await expect(page).toHaveURL(/\/dev\/design\/[0-9a-f]{24}$/);
  await expect(page.getByTestId('canvas').locator('.dz-item').first()).toBeVisible();
  await shot(page, 'sample-designer');

  // The published home page, on a phone, draws the copy's goods.
  const phone = await ctx.newPage();
  phone.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  phone.on('pageerror', (e) => errors.push(e.message));
  await phone.setViewportSize(PHONE);
  await phone.goto('/playground/mall-index');
  await expect(phone.locator('.lc-playground .lc-page')).toBeVisible();
  await expect(phone.locator('[data-wid="goods"] .lc-card-list-item')).toHaveCount(8);
  await expect(phone.locator('[data-wid="cats"] .lc-card-list-item')).toHaveCount(6);
  await shot(phone, 'sample-mall-published');
  expect(errors, errors.join('\n')).toEqual([]);
  await ctx.close();
});
