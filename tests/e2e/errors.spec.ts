import { expect, test } from '@playwright/test';
import { message } from '../../src/shared/validation.ts';
import { ADMIN, signInUi } from './helpers.ts';

test('a wrong password shows the login error notice', async ({ page }) => {
  await signInUi(page, ADMIN.user, 'wrong-pass1');
  const notice = page.locator('.ant-notification-notice');
  await expect(notice).toContainText('Error');
  await expect(notice).toContainText('1104');
  await expect(notice).toContainText('wrong account or password');
  await expect(page).toHaveURL(/\/login$/);
});

test('an invalid phone on the register form shows the spec message, in both languages', async ({ page }) => {
  await page.goto('/login/register');
  const phone = page.getByLabel('Phone');
  await phone.fill('12345');
  await phone.blur();
  await expect(page.getByText(message('phoneFormat', 'en'))).toBeVisible();

  await page.getByTestId('lang-switch').getByText('中文').click();
  await expect(page.getByRole('heading', { name: '注册' })).toBeVisible();
  await page.getByLabel('手机号').fill('123456');
  await expect(page.getByText(message('phoneFormat', 'zh'))).toBeVisible();
  // The choice is remembered.
  await page.reload();
  await expect(page.getByRole('heading', { name: '注册' })).toBeVisible();
});

test('the repeat password must match', async ({ page }) => {
  await page.goto('/login/register');
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByLabel('Repeat password').fill('secret124');
  await expect(page.getByText(message('passwordMismatch', 'en'))).toBeVisible();
});
