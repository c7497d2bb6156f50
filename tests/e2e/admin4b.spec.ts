/**
 * Feature switches acted on by the server, and the simple data-table entries (#22, admin4b), in an
 * owner's own project: switching Scheduled tasks off in /system/features removes its menu entry AND
 * the server refuses its calls (2220) until it is switched back on; with early access the side menu
 * offers Simple tables, whose entries open a table's rows. Screens shot at desktop and phone size.
 */
import { expect, test } from '@playwright/test';
import { adminApi, DESKTOP, PHONE, shot, signInWithToken } from './helpers.ts';

test.use({ actionTimeout: 20_000 });

test('a switched-off feature is gone from the menu and refused by the server; simple tables open rows', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const call = await adminApi(request);
  const suffix = Date.now().toString(36);
  const p = (await call<{ _id: string }>('/api/common/project/create', { name: `A4B ${suffix}` }))._id;
  const code = `stock${suffix}`;
  const A = `/api/admin/project/${p}`;
  await call(`${A}/entity/create`, { name: 'Stock', code });
  await call(`${A}/${code}/field/create`, { name: 'Item', field: 'item', type: 'string' });
  await call(`${A}/${code}/field/create`, { name: 'Count', field: 'count', type: 'number' });
  for (const [item, count] of [
    ['Bolts', 40],
    ['Nuts', 12],
  ] as const)
    await call(`/api/admin/data/${p}/${code}/save`, { item, count });
  await call(`/api/admin/auth/${p}/main/role/create`, { name: 'Storekeeper' });

  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await signInWithToken(page, call.token, p);
  await page.setViewportSize(DESKTOP);

  const schedules = async () =>
    (
      (await (
        await request.get(`/api/admin/schedule/${p}/schedule`, { headers: { token: call.token } })
      ).json()) as { error: number }
    ).error;
  expect(await schedules()).toBe(0);

  // Switch Scheduled tasks off: the entry goes and the server refuses the schedule calls.
  await page.goto('/system/features');
  const menu = page.getByTestId('admin-menu');
  await expect(page.getByTestId('system-features')).toBeVisible();
  await expect(menu.getByTestId('admin-menu-schedule')).toBeVisible();
  await page.getByTestId('feature-schedule').click();
  await expect(menu.getByTestId('admin-menu-schedule')).toHaveCount(0);
  await expect.poll(schedules).toBe(2220);
  // Back on: the entry and the calls return.
  await page.getByTestId('feature-schedule').click();
  await expect(menu.getByTestId('admin-menu-schedule')).toBeVisible();
  await expect.poll(schedules).toBe(0);

  // Early access offers the simple data-table entries.
  await expect(menu.getByTestId('admin-menu-simple')).toHaveCount(0);
  await page.getByTestId('feature-early').click();
  await menu.getByTestId('admin-menu-simple').click();
  await expect(page).toHaveURL(/\/system\/simple$/);
  const entry = page.getByTestId(`simple-entry-${code}`);
  await expect(entry).toBeVisible();
  // Give the role the table in simple mode.
  await entry.getByTestId('simple-roles').click();
  await page.locator('.ant-select-item-option').filter({ hasText: 'Storekeeper' }).click();
  await expect(page.getByText('Simple-mode roles saved')).toBeVisible();
  await page.keyboard.press('Escape');
  await shot(page, 'admin4b-simple-desktop');
  const roles = await call<{ name: string; simple: string[] }[]>(`/api/admin/auth/${p}/main/role/list`);
  expect(roles.find((r) => r.name === 'Storekeeper')!.simple).toHaveLength(1);

  await entry.getByTestId('simple-open').click();
  await expect(page).toHaveURL(/\/system\/simple\/[0-9a-f]{24}$/);
  const table = page.getByTestId('simple-table');
  await expect(table.getByText('Bolts')).toBeVisible();
  await expect(table.getByText('Nuts')).toBeVisible();
  await shot(page, 'admin4b-simple-table-desktop');

  await page.setViewportSize(PHONE);
  await page.getByTestId('simple-back').click();
  await expect(page.getByTestId(`simple-entry-${code}`)).toBeVisible();
  await shot(page, 'admin4b-simple-phone');
  await page.getByTestId(`simple-entry-${code}`).getByTestId('simple-open').click();
  await expect(page.getByTestId('simple-table').getByText('Bolts')).toBeVisible();
  await shot(page, 'admin4b-simple-table-phone');

  expect(errors).toEqual([]);
});
