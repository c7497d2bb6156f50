/**
 * Sealed calls in the browser. In a secure context (https, localhost) the page seals and opens on
 * WebCrypto and the compression streams; a page served over plain http from another host has no
 * WebCrypto, and the pure-JS primitives load on the first call instead. Both sign in through the form
 * (a sealed POST) and show a table's rows.
 */
import { expect, type Page, test } from '@playwright/test';
import { ADMIN, signInUi } from './helpers.ts';

async function signIn(page: Page): Promise<void> {
  await signInUi(page, ADMIN.user, ADMIN.pwd);
  await expect(page).not.toHaveURL(/\/login/);
  await expect(page.getByTestId('app-menu')).toBeVisible();
}

/** The demo's rows grid for orders: a sealed query answered and opened. */
async function openOrders(page: Page): Promise<void> {
  await page
    .getByTestId('app-menu')
    .getByText(/Orders/)
    .first()
    .click();
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
}

test('in a secure context calls are sealed and opened on WebCrypto', async ({ page }) => {
  // Count what the page asks of WebCrypto.
  await page.addInitScript(() => {
    const calls = { encrypt: 0, decrypt: 0 };
    (window as unknown as { cryptoCalls: typeof calls }).cryptoCalls = calls;
    const subtle = SubtleCrypto.prototype;
    for (const name of ['encrypt', 'decrypt'] as const) {
      const own = subtle[name];
      subtle[name] = function (this: SubtleCrypto, ...args: Parameters<typeof own>) {
        calls[name]++;
        return own.apply(this, args);
      } as typeof own;
    }
  });
  await signIn(page);
  // The sign-in POST was sealed, and the answers opened, on WebCrypto.
  const calls = await page.evaluate(
    () => (window as unknown as { cryptoCalls: { encrypt: number; decrypt: number } }).cryptoCalls,
  );
  expect(calls.encrypt).toBeGreaterThan(0);
  expect(calls.decrypt).toBeGreaterThan(0);
  await openOrders(page);
});

test('without WebCrypto (plain http from another host) the pure-JS envelope loads and the app works', async ({
  page,
}) => {
  // What an insecure context looks like to the page: no crypto.subtle.
  await page.addInitScript(() => {
    Object.defineProperty(Crypto.prototype, 'subtle', { get: () => undefined, configurable: true });
  });
  await page.goto('/login');
  expect(await page.evaluate(() => typeof crypto.subtle)).toBe('undefined');
  await signIn(page);
  await openOrders(page);
});
