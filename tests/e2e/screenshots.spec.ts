import { expect, test } from '@playwright/test';
import { ADMIN, DESKTOP, PHONE, shot, signInUi } from './helpers.ts';

for (const [size, viewport] of Object.entries({ desktop: DESKTOP, phone: PHONE })) {
  test(`screens at ${size} size`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await shot(page, `login-${size}`);

    await page.goto('/login/register');
    await expect(page.getByTestId('captcha-img').locator('img')).toBeVisible();
    await shot(page, `register-${size}`);

    await signInUi(page, ADMIN.user, ADMIN.pwd);
    await expect(page.getByTestId('project-list').getByText('Demo', { exact: true })).toBeVisible();
    await shot(page, `home-${size}`);
  });
}
