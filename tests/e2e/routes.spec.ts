import { expect, test } from '@playwright/test';

test('a deep link serves the app and sends a signed-out user to /login', async ({ page, request }) => {
  const res = await request.get('/some/client/route');
  expect(res.status()).toBe(200);
  expect(await res.text()).toContain('<div id="root">');
  await page.goto('/some/client/route');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('/reset clears storage and a stale token sends the user to /login', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(() => {
    localStorage.setItem('token', 'not-a-real-token-at-all-000000');
    localStorage.setItem('lang', 'zh');
  });
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await page.goto('/reset');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('lang'))).toBeNull();
});

test('raw mode (lc_raw=1) sends plain JSON and still signs in', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('lc_raw', '1'));
  const login = page.waitForRequest('**/api/common/user/login');
  await page.getByLabel('Account or phone').fill('builder');
  await page.getByLabel('Password').fill('builder123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const req = await login;
  expect(req.postDataJSON()).toEqual({ user: 'builder', pwd: 'builder123' });
  expect(req.headers()['x-envelope']).toBeUndefined();
  await expect(page.getByTestId('project-list').getByText('Demo', { exact: true })).toBeVisible();
});

test('by default bodies travel sealed with x-envelope: 1', async ({ page }) => {
  await page.goto('/login');
  const login = page.waitForRequest('**/api/common/user/login');
  await page.getByLabel('Account or phone').fill('builder');
  await page.getByLabel('Password').fill('builder123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const req = await login;
  expect(Object.keys(req.postDataJSON() as object)).toEqual(['encrypted']);
  expect(req.headers()['x-envelope']).toBe('1');
  await expect(page).toHaveURL(/\/$/);
});
