/**
 * The administration area's side menu and switches as an owner uses them (#22, admin3b): the menu
 * lists the /system screens in groups with the current one highlighted, collapses, sits in a drawer
 * on phones; switching a feature off in /system/features hides its entry and its screen; early-access
 * mode adds Deployment; the members list searches on the server.
 */
import { expect, test } from '@playwright/test';
import { adminApi, DESKTOP, PHONE, shot, signInWithToken } from './helpers.ts';

test.describe.configure({ mode: 'serial' });

test('the admin side menu follows the feature switches and modes', async ({ page, request }) => {
  test.setTimeout(180_000);
  const call = await adminApi(request);
  // A project of its own: switching features off on the shared Demo would reach other specs.
  const { _id: project } = await call<{ _id: string }>('/api/common/project/create', {
    name: `Admin menu ${Date.now().toString(36)}`,
  });
  await signInWithToken(page, call.token, project);
  await page.setViewportSize(DESKTOP);

  await page.goto('/system/user');
  const menu = page.getByTestId('admin-menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByTestId('admin-menu-user')).toHaveClass(/ant-menu-item-selected/);
  for (const p of ['auth', 'menu', 'schedule', 'i18n', 'features'])
    await expect(menu.getByTestId(`admin-menu-${p}`)).toBeVisible();
  // Debug and early-access entries are not there yet.
  await expect(menu.getByTestId('admin-menu-project')).toHaveCount(0);
  await expect(menu.getByTestId('admin-menu-deploy')).toHaveCount(0);

  // The members list searches on the server.
  await page.getByTestId('member-search').fill('zzz-nobody');
  await expect(page.getByText('No members').or(page.locator('.ant-empty'))).toBeVisible();
  await page.getByTestId('member-search').fill('');
  await shot(page, 'admin3b-menu-desktop');

  // Switch schedules off: the entry goes, the screen says so.
  await menu.getByTestId('admin-menu-features').click();
  await expect(page).toHaveURL(/\/system\/features$/);
  await expect(page.getByTestId('system-features')).toBeVisible();
  await page.getByTestId('feature-schedule').click();
  await expect(menu.getByTestId('admin-menu-schedule')).toHaveCount(0);
  await page.goto('/system/schedule');
  await expect(page.getByTestId('system-feature-off')).toBeVisible();
  await page.goto('/system/features');
  await page.getByTestId('feature-schedule').click();
  await expect(page.getByTestId('admin-menu').getByTestId('admin-menu-schedule')).toBeVisible();

  // Early-access mode adds Deployment (a vendor build).
  await page.getByTestId('feature-early').click();
  await expect(page.getByTestId('admin-menu').getByTestId('admin-menu-deploy')).toBeVisible();
  await shot(page, 'admin3b-features-desktop');
  await page.getByTestId('feature-early').click();

  // Collapsed sider, then the phone drawer.
  await page.getByTestId('menu-collapse').click();
  await expect(page.locator('.ant-menu-inline-collapsed[data-testid="admin-menu"]')).toBeVisible();
  await page.getByTestId('menu-collapse').click();
  await page.setViewportSize(PHONE);
  await page.getByTestId('menu-open').click();
  const drawer = page.getByTestId('menu-drawer');
  await expect(drawer.getByTestId('admin-menu')).toBeVisible();
  await shot(page, 'admin3b-menu-phone');
  await drawer.getByTestId('admin-menu-i18n').click();
  await expect(page).toHaveURL(/\/system\/i18n$/);
  await expect(page.getByTestId('system-i18n')).toBeVisible();
});
