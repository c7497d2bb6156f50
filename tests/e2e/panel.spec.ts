/**
 * The widget gallery (/dev/panel-lab) as a builder uses the property panel: a text prop, a number out
 * of range (error shown, JSON unchanged), a binding with a bad expression (error shown), an onClick
 * action list on a button, the kanban board's declared events, and the Monaco code editor loaded from
 * the local bundle (no request leaves 127.0.0.1) with `api.` completing.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { ADMIN, pick, signInUi } from './helpers.ts';

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
  await expect(page.getByTestId('current-user').or(page.getByTestId('project-list')).first()).toBeVisible();
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
  const lines = editor.locator('.view-lines');
  const suggest = modal.locator('.suggest-widget .monaco-list-row', { hasText: 'notify' });
  // Type `api.` (again, should a busy machine have dropped a key) until Monaco offers the API.
  await expect(async () => {
    const text = ((await lines.textContent()) ?? '').replace(/\u00a0/g, ' ').trim();
    if (text !== 'api.') {
      await lines.click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Delete');
      await page.keyboard.type('api.');
    } else if (!(await suggest.first().isVisible())) await page.keyboard.press('Control+Space');
    await expect(suggest.first()).toBeVisible({ timeout: 5000 });
  }).toPass({ timeout: 90_000 });
  // The list is the declared API (alphabetical; the window shows the first dozen or so).
  await expect(modal.locator('.suggest-widget')).toContainText('openModal');
  await expect(modal.locator('.suggest-widget')).toContainText('getValue');
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

  // The board's events are declared by its kind, so the events tab offers and edits them.
  await page.goto('/dev/panel-lab?kind=kanban');
  await expect(panel).toHaveAttribute('data-kind', 'kanban');
  await panel.getByRole('tab', { name: 'Events' }).click();
  await expect(panel.getByTestId('event-onCardClick')).toContainText('On card click');
  await expect(panel.getByTestId('event-onMove')).toContainText('On card move');
  await panel.getByTestId('add-action-onMove').click();
  await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item', { hasText: 'Notify' }).click();
  await panel.getByTestId('action-onMove.0-message').fill('Moved');
  await expect
    .poll(async () => (await json(page)).events)
    .toEqual({ onMove: [{ type: 'notify', level: 'success', message: 'Moved' }] });

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

test('pickers list the project tables and fields; the setup script saves; custom panels; zh labels', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signInUi(page, ADMIN.user, ADMIN.pwd);
  await expect(page.getByTestId('current-user').or(page.getByTestId('project-list')).first()).toBeVisible();

  // A table with one field, made through the workbench.
  const table = `Orders ${Date.now().toString(36)}`;
  await page.goto('/dev/data');
  await page.getByTestId('new-table').click();
  await page.locator('#entity-form_name').fill(table);
  await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn-primary').click();
  await expect(page.getByTestId('entity-screen').getByRole('heading')).toContainText(table);
  await page.getByTestId('new-field').click();
  await page.locator('#field-form_name').fill('Amount');
  await page.locator('#field-form_field').fill('amount');
  await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn-primary').click();
  await expect(
    page.getByTestId('field-editor').getByRole('cell', { name: 'Amount', exact: true }),
  ).toBeVisible();

  // The form widget: entity picker lists the table, the field picker of a row lists its fields.
  await page.goto('/dev/panel-lab?kind=form');
  const panel = page.getByTestId('property-panel');
  await expect(panel).toHaveAttribute('data-kind', 'form');
  // The demo project holds many tables (the playground apps): type to narrow the virtual list.
  await pick(page, panel.locator('[data-prop="prop-entity"] .ant-select'), table, table);
  await expect
    .poll(async () => ((await json(page)).props as { entity: string }).entity)
    .toMatch(/^[0-9a-f]{24}$/);
  await panel.getByTestId('prop-fields-add').click();
  await panel.locator('[data-testid="prop-fields-row-0"] .ant-select').first().click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Amount' }).click();
  await expect
    .poll(async () => ((await json(page)).props as { fields: { field: string }[] }).fields)
    .toEqual([{ field: 'amount' }]);
  await snap(page, 'form-pickers');

  // Custom panels: the table's toggles in groups, the column chart's series rows.
  await page.goto('/dev/panel-lab?kind=table');
  await expect(page.getByTestId('custom-panel-table')).toBeVisible();
  await page.getByTestId('prop-export').click();
  await expect.poll(async () => ((await json(page)).props as { export: boolean }).export).toBe(true);
  await snap(page, 'table-panel');
  await page.goto('/dev/panel-lab?kind=chart-column');
  await expect(page.getByTestId('custom-panel-series')).toBeVisible();
  await page.getByTestId('series-add').click();
  await page.getByTestId('series-row-5').locator('input').first().fill('六月');
  await page.getByTestId('series-row-5').locator('input').nth(1).fill('42');
  await expect
    .poll(async () => {
      const p = (await json(page)).props as { categories: string[]; value: number[] };
      return [p.categories.at(-1), p.value.at(-1)];
    })
    .toEqual(['六月', 42]);
  await snap(page, 'chart-series');

  // The setup script: typed in Monaco, saved to the project, there again after a reload.
  await page.goto('/dev/panel-lab?kind=__page');
  await page.getByTestId('page-panel').getByText('Setup', { exact: true }).click();
  await page.getByTestId('open-setup').click();
  const setup = page.getByTestId('setup-script');
  await expect(setup.locator('.monaco-editor')).toBeVisible();
  await setup.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  const marker = `setup-${Date.now().toString(36)}`;
  await page.keyboard.type(`// ${marker}\n`);
  await setup.getByTestId('setup-save').click();
  await expect(setup.locator('.ant-tag')).toHaveText('Saved');
  await snap(page, 'setup-script');
  await page.reload();
  await page.getByTestId('page-panel').getByText('Setup', { exact: true }).click();
  await page.getByTestId('open-setup').click();
  await expect(page.getByTestId('setup-script').locator('.view-lines')).toContainText(marker);

  // Chinese: labels come from x-zh and enum options from x-enum-zh.
  await page.evaluate(() => localStorage.setItem('lang', 'zh'));
  await page.goto('/dev/panel-lab?kind=button');
  const zhPanel = page.getByTestId('property-panel');
  await expect(zhPanel.locator('[data-prop="prop-size"]')).toContainText('尺寸');
  await expect(zhPanel.locator('[data-prop="prop-size"] .ant-select')).toContainText('中');
  await page.goto('/dev/panel-lab?kind=text');
  await page.locator('[data-prop="prop-fontSize"] input').fill('500');
  await expect(page.locator('[data-prop="prop-fontSize"] .panel-error')).toHaveText('不能大于 96');
  await snap(page, 'panel-zh');
});
