/**
 * The end user's data view on a list menu entry, as a member whose role is granted one table:
 * filter by two fields, save the filter privately and publicly (a second member sees the public one
 * only), group with a sum row, row height and a fixed column kept after a reload, add and edit a
 * record, export all rows and re-open the file, import a file with one bad row and see its error,
 * print the view, and see a record another member adds appear without reloading.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { adminApi, DESKTOP, PHONE, pick, shot, signInWithToken, uniqueAccount } from './helpers.ts';

test.use({ actionTimeout: 20_000 });

const KINDS = ['alpha', 'beta', 'gamma'];

async function seed(request: Parameters<typeof adminApi>[0]) {
  const call = await adminApi(request);
  const suffix = Date.now().toString(36);
  const p = (await call<{ _id: string }>('/api/common/project/create', { name: `Views ${suffix}` }))._id;
  const code = `task${suffix}`;
  const A = `/api/admin/project/${p}`;
  const entity = await call<{ _id: string }>(`${A}/entity/create`, { name: 'Tasks', code });
  for (const [name, field, type] of [
    ['Title', 'title', 'string'],
    ['Kind', 'kind', 'string'],
    ['Qty', 'qty', 'number'],
  ] as const)
    await call(`${A}/${code}/field/create`, { name, field, type });
  // Qty 1..9; kinds alpha, beta, gamma in turn: alpha has 1, 4, 7 (sum 12).
  for (let i = 1; i <= 9; i++)
    await call(`/api/admin/data/${p}/${code}/save`, { title: `Task ${i}`, kind: KINDS[(i - 1) % 3], qty: i });
  const entry = await call<{ _id: string }>(`/api/admin/route/${p}/create`, {
    type: 'table',
    name: 'Task list',
    value: code,
  });
  const role = await call<{ _id: string }>(`/api/admin/auth/${p}/main/role/create`, {
    name: 'Clerk',
    type: 'common',
  });
  await call(`/api/admin/auth/${p}/main/role/${role._id}/bind`, { route: [entry._id], entity: [entity._id] });
  const tokens: string[] = [];
  for (const who of ['ann', 'bob']) {
    const account = uniqueAccount(who);
    await call(`/api/admin/user/${p}/create`, { role: role._id, account, pwd: 'secret123', name: who });
    tokens.push((await adminApi(request, { user: account, pwd: 'secret123' })).token);
  }
  return { project: p, code, ann: tokens[0]!, bob: tokens[1]! };
}

/** The input of a box marked `id`, whether antd put the mark on the input or on its wrapper. */
const inputOf = (scope: Page | ReturnType<Page['locator']>, id: string) =>
  scope.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first();

const titles = (page: Page) =>
  page
    .locator('[data-testid="data-view"] .ant-table-tbody tr.ant-table-row:not(.dv-group-row)')
    .evaluateAll((rows) =>
      rows.map((r) => (r.textContent ?? '').match(/Task \d+|New task[^0-9]*|Edited task/)?.[0] ?? ''),
    );

async function writeXlsx(file: string, header: string[], rows: unknown[][]): Promise<void> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Rows');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  await wb.xlsx.writeFile(file);
}

test('an end user filters, saves filters, groups, arranges, edits, exports, imports, prints, sees live changes', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const s = await seed(request);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-views-'));
  await page.setViewportSize(DESKTOP);
  await signInWithToken(page, s.ann, s.project);
  await page.goto(`/home/${s.code}`);
  const view = page.getByTestId('data-view');
  const total = page.getByTestId('view-total');
  await expect(view.getByText('Task 1', { exact: true })).toBeVisible();
  await expect(total).toContainText('Rows: 9');

  // Filter by two fields: kind = alpha and qty > 1 → Task 4, Task 7.
  await page.getByTestId('view-filter').click();
  const filter = page.getByTestId('table-filter');
  await filter.getByTestId('table-filter-add').click();
  await pick(page, filter.getByTestId('table-filter-field').first(), 'Kind');
  await pick(page, filter.getByTestId('table-filter-op').first(), 'equals');
  await inputOf(filter, 'table-filter-value').fill('alpha');
  await filter.getByTestId('table-filter-add').click();
  const second = filter.getByTestId('table-filter-row').nth(1);
  await pick(page, second.getByTestId('table-filter-field'), 'Qty');
  await pick(page, second.getByTestId('table-filter-op'), 'greater than');
  await inputOf(second, 'table-filter-value').fill('1');
  await filter.getByTestId('table-filter-apply').click();
  await expect(total).toContainText('Rows: 2');
  expect(await titles(page)).toEqual(['Task 4', 'Task 7']);

  // Saved as private and as public.
  for (const [name, type] of [
    ['Mine only', 'Only me'],
    ['For all', 'Everyone (public)'],
  ] as const) {
    await page.getByTestId('save-filter').click();
    const dialog = page.locator('.ant-modal:visible');
    await dialog.getByTestId('save-filter-name').fill(name);
    await dialog.getByLabel(type).check();
    await dialog.getByTestId('save-filter-ok').click();
    await expect(page.locator('.ant-modal:visible')).toHaveCount(0);
  }
  await page.getByTestId('saved-filters').click();
  await expect(page.getByTestId('saved-filter-item')).toHaveCount(2);
  await page.keyboard.press('Escape');

  // Clear the filter; group by kind with statistics: alpha's sum is 12, the whole set's 45.
  await page.getByTestId('view-filter').click();
  await filter.getByTestId('table-filter-clear').click();
  await expect(total).toContainText('Rows: 9');
  await page.keyboard.press('Escape');
  await pick(page, page.getByTestId('view-group'), 'Kind');
  await page.keyboard.press('Escape');
  await page.getByTestId('view-summary').click();
  const heads = view.getByTestId('group-head');
  await expect(heads).toHaveCount(3);
  await expect(heads.first()).toContainText('alpha');
  await expect(heads.first()).toContainText('3');
  await expect(view.locator('.dv-group-row').first()).toContainText('Σ 12');
  await expect(view.getByTestId('summary-sum-qty')).toContainText('45');
  await expect(view.getByTestId('summary-count')).toHaveText('9');
  await shot(page, 'data-views-group-desktop');
  // Back to plain rows for what follows.
  await page.getByTestId('view-group').locator('.ant-select-clear').click({ force: true });
  await expect(heads).toHaveCount(0);

  // Row height and a fixed column, kept after a reload (stored on this device).
  await pick(page, page.getByTestId('view-row-height'), 'High');
  await page.getByTestId('view-columns').click();
  await pick(page, page.getByTestId('fix-title'), 'Fix left');
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(view.getByText('Task 1', { exact: true })).toBeVisible();
  await expect(page.getByTestId('view-row-height')).toContainText('High');
  await expect(view.locator('th[class*="ant-table-cell-fix"]', { hasText: 'Title' })).toHaveCount(1);
  const height = await view
    .locator('.ant-table-tbody tr.ant-table-row')
    .first()
    .evaluate((r) => r.getBoundingClientRect().height);
  expect(height).toBeGreaterThanOrEqual(79);

  // Add a record, then edit it.
  await page.getByTestId('view-add').click();
  let form = page.getByTestId('row-form');
  await inputOf(form, 'input-title').fill('New task');
  await inputOf(form, 'input-kind').fill('beta');
  await inputOf(form, 'input-qty').fill('100');
  await page.locator('.ant-modal:visible').getByRole('button', { name: 'Save' }).click();
  await expect(total).toContainText('Rows: 10');
  await expect(view.getByText('New task', { exact: true })).toBeVisible();
  await view.locator('tr', { hasText: 'New task' }).getByTestId('row-edit').click();
  form = page.getByTestId('row-form');
  await expect(inputOf(form, 'input-title')).toHaveValue('New task');
  await inputOf(form, 'input-title').fill('Edited task');
  await page.locator('.ant-modal:visible').getByRole('button', { name: 'Save' }).click();
  await expect(view.getByText('Edited task', { exact: true })).toBeVisible();
  await expect(view.getByText('New task', { exact: true })).toHaveCount(0);

  // Export all rows and re-open the file.
  await page.getByTestId('xlsx-export').click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: /^All/ }).click();
  const saved = path.join(dir, 'export.xlsx');
  await (await downloading).saveAs(saved);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(saved);
  const ws = wb.worksheets[0]!;
  expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual(['Title', 'Kind', 'Qty']);
  expect(ws.rowCount).toBe(11);

  // Import a file with one bad row: its error is listed and nothing is imported.
  const bad = path.join(dir, 'bad.xlsx');
  await writeXlsx(
    bad,
    ['Title', 'Kind', 'Qty'],
    [
      ['Imported 1', 'alpha', 5],
      ['Imported 2', 'beta', 'lots'],
    ],
  );
  await page.getByTestId('xlsx-import').click();
  const dialog = page.locator('.ant-modal:visible');
  await dialog.locator('input[type=file]').setInputFiles(bad);
  await dialog.getByTestId('xlsx-import-start').click();
  const result = dialog.getByTestId('xlsx-result');
  await expect(result).toContainText('row 3-lots');
  await shot(page, 'data-views-import-error');
  await dialog.getByTestId('xlsx-import-close').click();
  await expect(total).toContainText('Rows: 10');

  // Print: an A4-wide printable rendering of the view, then the browser's print.
  await page.evaluate(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => {
      (window as unknown as { printed: number }).printed++;
    };
  });
  await page.getByTestId('view-print').click();
  const area = page.getByTestId('print-area');
  await expect(area.locator('th')).toHaveText(['Title', 'Kind', 'Qty']);
  await expect(area.locator('tbody tr')).toHaveCount(10);
  // Read once the opening animation has ended (the modal zooms in).
  await expect
    .poll(() => area.evaluate((a) => a.closest('.ant-modal')?.getBoundingClientRect().width ?? 0))
    .toBeGreaterThan(780);
  await shot(page, 'data-views-print');
  await page.getByTestId('print-now').click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  await page.locator('.ant-modal:visible .ant-modal-footer').getByRole('button', { name: 'Close' }).click();

  // A second member: sees the public filter, not the private one; adds a record Ann sees live.
  const other = await browser.newContext({ viewport: DESKTOP });
  await signInWithToken(other, s.bob, s.project);
  const bob = await other.newPage();
  await bob.goto(`/home/${s.code}`);
  await expect(bob.getByTestId('data-view').getByText('Task 1', { exact: true })).toBeVisible();
  await bob.getByTestId('saved-filters').click();
  await expect(bob.getByTestId('saved-filter-item')).toHaveCount(1);
  await expect(bob.getByTestId('saved-filter-item')).toContainText('For all');
  await bob.keyboard.press('Escape');
  // Give the live channel of both a moment to join the project room.
  await bob.waitForTimeout(1000);
  await bob.getByTestId('view-add').click();
  await inputOf(bob.getByTestId('row-form'), 'input-title').fill('From Bob');
  await bob.locator('.ant-modal:visible').getByRole('button', { name: 'Save' }).click();
  await expect(bob.getByTestId('data-view').getByText('From Bob', { exact: true })).toBeVisible();
  // Ann did not reload: the row arrives through the socket channel.
  await expect(view.getByText('From Bob', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(total).toContainText('Rows: 11');
  await other.close();

  // Phone: the rows as cards.
  await page.setViewportSize(PHONE);
  await expect(page.getByTestId('view-card').first()).toBeVisible();
  await shot(page, 'data-views-phone');
  await page.setViewportSize(DESKTOP);
  await shot(page, 'data-views-desktop');
});
