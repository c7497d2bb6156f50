/**
 * The widget gallery (/dev/panel-lab) as a builder uses the property panel: a text prop, a number out
 * of range (error shown, JSON unchanged), a binding with a bad expression (error shown), an onClick
 * action list on a button, and the Monaco code editor loaded from the local bundle (no request leaves
 * 127.0.0.1) with `api.` completing.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { ADMIN, signInUi } from './helpers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SHOTS = path.join(root, 'test-results/e2e/panel');

async function snap(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** The instance JSON the gallery shows. */
async function json(page: Page): Promise<Record<string, unknown>> {
  return JSON.parse((await page.getByTestId('lab-json').textContent()) ?? '{}') as Record<string, unknown>;
}

test.use({ actionTimeout: 20_000 });

test('property panel edits props, bindings, events and code', async ({ page }) => {
  test.setTimeout(240_000);
  const outside: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.protocol.startsWith('http') && u.hostname !== '127.0.0.1') outside.push(r.url());
  });

  await signInUi(page, ADMIN.user, ADMIN.pwd);
  await expect(page.getByTestId('current-user').or(page.getByTestId('project-list'))).toBeVisible();
  await page.goto('/dev/panel-lab?kind=text');
  const panel = page.getByTestId('property-panel');
  await expect(panel).toHaveAttribute('data-kind', 'text');

  // A text prop: typed, it lands in the instance JSON.
  await panel.getByTestId('prop-text').fill('Hello panel');
  await expect
    .poll(async () => ((await json(page)).props as Record<string, unknown>).text)
    .toBe('Hello panel');
  await expect(page.locator('.lab-preview')).toContainText('Hello panel');

  // A number out of range (8–96): the error shows beside the field and the JSON keeps the old value.
  const fontSize = panel.locator('[data-prop="prop-fontSize"] input');
  await fontSize.fill('500');
  const fontField = panel.locator('[data-prop="prop-fontSize"]');
  await expect(fontField.locator('.panel-error')).toContainText('96');
  expect(((await json(page)).props as Record<string, unknown>).fontSize).toBe(14);
  await snap(page, 'number-out-of-range');
  await fontSize.fill('20');
  await expect(fontField.locator('.panel-error')).toHaveCount(0);
  await expect.poll(async () => ((await json(page)).props as Record<string, unknown>).fontSize).toBe(20);

  // fx: the text becomes a binding; a broken expression shows an error and is not sent.
  await panel.getByTestId('fx-text').click();
  const expr = panel.getByTestId('prop-text-expr');
  await expect(expr).toHaveValue('"Hello panel"');
  await expect
    .poll(async () => ((await json(page)).props as Record<string, unknown>).text)
    .toEqual({
      $expr: '"Hello panel"',
    });
  await expr.fill('state.count +');
  const textField = panel.locator('[data-prop="prop-text"]');
  await expect(textField.locator('.panel-error')).toBeVisible();
  expect(((await json(page)).props as Record<string, unknown>).text).toEqual({ $expr: '"Hello panel"' });
  // Completion: scope roots and functions are offered for what is being typed.
  await expr.fill('wid');
  await expect(page.locator('.ant-select-dropdown:visible [data-hint="widgets"]')).toBeVisible();
  await snap(page, 'expression-hints');
  await expr.fill('upper(user.nickname)');
  await expect(textField.locator('.panel-error')).toHaveCount(0);
  await expect
    .poll(async () => ((await json(page)).props as Record<string, unknown>).text)
    .toEqual({
      $expr: 'upper(user.nickname)',
    });
  await snap(page, 'binding');

  // A button's onClick: notify, then run code edited in Monaco.
  await page.goto('/dev/panel-lab?kind=button');
  await expect(panel).toHaveAttribute('data-kind', 'button');
  await panel.getByRole('tab', { name: 'Events' }).click();
  await panel.getByTestId('add-action-onClick').click();
  await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item', { hasText: 'Notify' }).click();
  // Message is required: the action shows the error and nothing is sent yet.
  const first = panel.getByTestId('action-onClick.0');
  await expect(first.locator('.panel-error')).toBeVisible();
  expect((await json(page)).events).toBeUndefined();
  await first.getByTestId('action-onClick.0-message').fill('Saved!');
  await expect(first.locator('.panel-error')).toHaveCount(0);
  await expect
    .poll(async () => (await json(page)).events)
    .toEqual({
      onClick: [{ type: 'notify', level: 'success', message: 'Saved!' }],
    });

  await panel.getByTestId('add-action-onClick').click();
  await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item', { hasText: 'Run code' }).click();
  await panel.getByTestId('action-onClick.1-code-edit').click();
  const modal = page.getByTestId('code-modal');
  const editor = modal.locator('.monaco-editor');
  await expect(editor).toBeVisible();
  await editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type('api.');
  const suggest = modal.locator('.suggest-widget .monaco-list-row', { hasText: 'notify' });
  await expect(async () => {
    if (!(await suggest.first().isVisible())) await page.keyboard.press('Control+Space');
    await expect(suggest.first()).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 60_000 });
  await expect(modal.locator('.suggest-widget')).toContainText('runProgram');
  await snap(page, 'monaco-completion');
  await suggest.first().click();
  // Monaco closes the bracket itself.
  await page.keyboard.type('(');
  await page.keyboard.press('Escape');
  await modal.getByRole('button', { name: 'OK' }).click();
  await expect(modal).toBeHidden();
  await expect
    .poll(async () => ((await json(page)).events as { onClick: { code?: string }[] }).onClick[1]?.code)
    .toContain('api.notify()');
  await snap(page, 'button-events');

  // The page panel of the gallery: title and layout, with the setup script entry.
  await page.getByTestId('lab-kinds').getByText('Page settings').click();
  await expect(page.getByTestId('page-panel')).toBeVisible();
  await page
    .locator('input[data-testid="layout-pc-cols"], [data-testid="layout-pc-cols"] input')
    .first()
    .fill('0');
  await expect(page.getByTestId('page-panel').locator('.panel-error').first()).toBeVisible();
  expect(((await json(page)).layout as { pc: { cols: number } }).pc.cols).toBe(120);
  await page
    .locator('input[data-testid="layout-pc-cols"], [data-testid="layout-pc-cols"] input')
    .first()
    .fill('24');
  await expect.poll(async () => ((await json(page)).layout as { pc: { cols: number } }).pc.cols).toBe(24);
  await snap(page, 'page-panel');

  expect(outside, 'requests that left 127.0.0.1').toEqual([]);
});
