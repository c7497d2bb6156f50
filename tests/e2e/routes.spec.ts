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
