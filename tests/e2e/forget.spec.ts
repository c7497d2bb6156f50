import { expect, test } from '@playwright/test';
import {
  fillSettled,
  registerByApi,
  sendCode,
  signInUi,
  trackCaptcha,
  uniqueAccount,
  uniquePhone,
} from './helpers.ts';

test('forgot password resets it, counts back to sign-in, and the new one works', async ({
  page,
  request,
}) => {
  const phone = uniquePhone();
  const user = uniqueAccount('fgt');
  await registerByApi(request, { user, pwd: 'oldpass11', phone, nickname: 'Forgetful' });

  const latestTicket = trackCaptcha(page);
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/login\/forget$/);
  await page.waitForLoadState('networkidle');
  await fillSettled(page.getByLabel('Phone'), phone);
  const code = await sendCode(page, request, latestTicket, phone, 'reset');
  await page.getByLabel('SMS code').fill(code);
  await page.getByLabel('New password').fill('newpass22');
  await page.getByLabel('Repeat password').fill('newpass22');
  await page.getByRole('button', { name: 'Reset password' }).click();

  await expect(page.getByTestId('reset-countdown')).toContainText('Back to sign in in');
  await expect(page).toHaveURL(/\/login$/, { timeout: 8_000 });

  await signInUi(page, user, 'oldpass11');
  await expect(page.locator('.ant-notification-notice')).toContainText('1104');
  await signInUi(page, phone, 'newpass22');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('current-user')).toContainText('Forgetful');
});
