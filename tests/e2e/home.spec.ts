import { expect, test } from '@playwright/test';
import { ADMIN, shot, signInUi } from './helpers.ts';

test('builder signs in, sees Demo, creates a project, logs out', async ({ page }) => {
  await signInUi(page, ADMIN.user, ADMIN.pwd);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('current-user')).toContainText('Owner');
  const list = page.getByTestId('project-list');
  await expect(list.getByText('Demo', { exact: true })).toBeVisible();

  const name = `E2E ${Date.now().toString(36)}`;
  await page.getByPlaceholder('Name').fill(name);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Create succeeded')).toBeVisible();
  await expect(list.getByText(name, { exact: true })).toBeVisible();

  // Still there after a reload: it came from the server.
  await page.reload();
  await expect(page.getByTestId('project-list').getByText(name, { exact: true })).toBeVisible();
  await shot(page, 'home-after-create');

  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login$/);
  // The old session is gone: home sends us back to sign-in.
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
});

test('a path ending in /logout signs out', async ({ page }) => {
  await signInUi(page, ADMIN.user, ADMIN.pwd);
  await expect(page.getByTestId('project-list')).toBeVisible();
  await page.goto('/anything/logout');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('/login/{token} signs in with that token', async ({ page, request }) => {
  const res = await request.post('/api/common/user/login', { data: ADMIN });
  const { data } = (await res.json()) as { data: { token: string } };
  await page.goto(`/login/${data.token}`);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('project-list').getByText('Demo', { exact: true })).toBeVisible();
});
