import { expect, test } from '@playwright/test';
import { fillSettled, sendCode, shot, trackCaptcha, uniqueAccount, uniquePhone } from './helpers.ts';

test('a new user registers with the SMS code and lands on home', async ({ page, request }) => {
  const latestTicket = trackCaptcha(page);
  const phone = uniquePhone();
  const account = uniqueAccount('reg');
  await page.goto('/login');
  await page.getByRole('link', { name: 'Register now' }).click();
  await expect(page).toHaveURL(/\/login\/register$/);

  await page.getByLabel('Account', { exact: true }).fill(account);
  await page.getByLabel('Company or full name').fill('Acme Ltd');
  await page.waitForLoadState('networkidle');
  await fillSettled(page.getByLabel('Phone'), phone);
  const code = await sendCode(page, request, latestTicket, phone, 'reg');
  await page.getByLabel('SMS code').fill(code);
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByLabel('Repeat password').fill('secret123');
  await page.getByLabel('I have read and agree').check();
  await shot(page, 'register-filled');
  await page.getByRole('button', { name: 'Register', exact: true }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('current-user')).toContainText('Acme Ltd');
  await expect(page.getByTestId('project-list')).toBeVisible();
});
