/**
 * The end user's data view on a list menu entry, as a member whose role is granted one table:
 * filter by two fields, save the filter privately and publicly (project filters are a builder's: the
 * member is not offered them, and a builder's one is seen by both members; a second member sees the
 * public and project ones, not the private one), group with a sum row, row height and a fixed column
 * kept after a reload, add a record with an uploaded image and edit it, export all rows and re-open the
 * file, import a file with one bad row and see its error, print the view, and see a record another
 * member adds, and one a builder adds through the API, appear without reloading.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { grayPng } from '../../src/server/data/xlsx/images.ts';
import { open } from '../../src/shared/envelope.ts';
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
    ['Photo', 'photo', 'image'],
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
  // A builder's project filter: every member of the project sees it.
  await call(`/api/app/view/${p}/${code}/filters/save`, {
    name: 'Team view',
    type: 'project',
    filter: { match: 'and', conditions: [{ field: 'kind', opt: 'eq', value: 'beta' }] },
  });
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

  // Saved as private and as public; a member is not offered the project type (a builder's).
  for (const [name, type] of [
    ['Mine only', 'Only me'],
    ['For all', 'Everyone (public)'],
  ] as const) {
    await page.getByTestId('save-filter').click();
    const dialog = page.locator('.ant-modal:visible');
    await expect(dialog.getByTestId('save-filter-type').getByRole('radio')).toHaveCount(2);
    await dialog.getByTestId('save-filter-name').fill(name);
    await dialog.getByLabel(type).check();
    await dialog.getByTestId('save-filter-ok').click();
    await expect(page.locator('.ant-modal:visible')).toHaveCount(0);
  }
  await page.getByTestId('saved-filters').click();
  await expect(page.getByTestId('saved-filter-item')).toHaveCount(3);
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

  // Add a record with an image uploaded from disk (its preview shown before saving), then edit it.
  const photo = path.join(dir, 'photo.png');
  fs.writeFileSync(
    photo,
    grayPng(64, 48, (x, y) => (((x >> 3) + (y >> 3)) % 2 ? 40 : 220)),
  );
  await page.getByTestId('view-add').click();
  let form = page.getByTestId('row-form');
  await inputOf(form, 'input-title').fill('New task');
  await inputOf(form, 'input-kind').fill('beta');
  await inputOf(form, 'input-qty').fill('100');
  await form.getByTestId('input-photo').locator('input[type=file]').setInputFiles(photo);
  const preview = form.getByTestId('input-photo').locator('.lc-upload-item img');
  await expect(preview).toHaveAttribute('src', /\/upload\/project\/[0-9a-f]{24}\/main\/image\//);
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await shot(page, 'data-views-add-upload');
  await page.locator('.ant-modal:visible').getByRole('button', { name: 'Save' }).click();
  await expect(total).toContainText('Rows: 10');
  await expect(view.getByText('New task', { exact: true })).toBeVisible();
  const added = view.locator('tr', { hasText: 'New task' }).locator('img');
  await expect(added).toHaveAttribute('src', /\/upload\//);
  await expect.poll(() => added.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await view.locator('tr', { hasText: 'New task' }).getByTestId('row-edit').click();
  form = page.getByTestId('row-form');
  await expect(inputOf(form, 'input-title')).toHaveValue('New task');
  await expect(form.getByTestId('input-photo').locator('.lc-upload-item img')).toHaveCount(1);
  await inputOf(form, 'input-title').fill('Edited task');
  await page.locator('.ant-modal:visible').getByRole('button', { name: 'Save' }).click();
  await expect(view.getByText('Edited task', { exact: true })).toBeVisible();
  await expect(view.getByText('New task', { exact: true })).toHaveCount(0);
  // Copy as new: the form opens as a new record holding the copied values.
  await view.locator('tr', { hasText: 'Edited task' }).getByTestId('row-more').click();
  await page.getByRole('menuitem', { name: 'Copy as new' }).click();
  const copy = page.locator('.ant-modal:visible');
  await expect(copy.locator('.ant-modal-title')).toHaveText('New row');
  await expect(inputOf(copy, 'input-title')).toHaveValue('Edited task');
  await copy.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('.ant-modal:visible')).toHaveCount(0);

  // Export all rows and re-open the file.
  await page.getByTestId('xlsx-export').click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: /^All/ }).click();
  const saved = path.join(dir, 'export.xlsx');
  await (await downloading).saveAs(saved);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(saved);
  const ws = wb.worksheets[0]!;
  expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual(['Title', 'Kind', 'Qty', 'Photo']);
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
  await expect(area.locator('th')).toHaveText(['Title', 'Kind', 'Qty', 'Photo']);
  await expect(area.locator('tbody tr')).toHaveCount(10);
  // A file prints as its name, not its address.
  const printed = area.locator('tbody tr', { hasText: 'Edited task' });
  await expect(printed).toContainText('photo.png');
  await expect(printed).not.toContainText('/upload/');
  // Read once the opening animation has ended (the modal zooms in).
  await expect
    .poll(() => area.evaluate((a) => a.closest('.ant-modal')?.getBoundingClientRect().width ?? 0))
    .toBeGreaterThan(780);
  await shot(page, 'data-views-print');
  await page.getByTestId('print-now').click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  await page.locator('.ant-modal:visible .ant-modal-footer').getByRole('button', { name: 'Close' }).click();

  // A second member: sees the public and project filters, not the private one; adds a record Ann sees live.
  const other = await browser.newContext({ viewport: DESKTOP });
  await signInWithToken(other, s.bob, s.project);
  const bob = await other.newPage();
  await bob.goto(`/home/${s.code}`);
  await expect(bob.getByTestId('data-view').getByText('Task 1', { exact: true })).toBeVisible();
  await bob.getByTestId('saved-filters').click();
  await expect(bob.getByTestId('saved-filter-item')).toHaveCount(2);
  const seen = (await bob.getByTestId('saved-filter-item').allTextContents()).join(' | ');
  expect(seen).toContain('For all');
  expect(seen).toContain('Team view');
  expect(seen).not.toContain('Mine only');
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
  // A builder's write through the API, not from a data view, reaches Ann's view too: the server tells
  // the project's room after every committed write.
  const builder = await adminApi(request);
  await builder(`/api/admin/data/${s.project}/${s.code}/save`, {
    title: 'From the builder',
    kind: 'gamma',
    qty: 1,
  });
  await expect(view.getByText('From the builder', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(total).toContainText('Rows: 12');

  // Phone: the rows as cards.
  await page.setViewportSize(PHONE);
  await expect(page.getByTestId('view-card').first()).toBeVisible();
  await shot(page, 'data-views-phone');
  await page.setViewportSize(DESKTOP);
  await shot(page, 'data-views-desktop');
});

/**
 * The same table on a published page and beside a dataset: Tasks (title, kind, qty, tag), a page with
 * a table widget over the table (index, grouping, add) and one over a dataset of the table, a list
 * menu entry of the table and one of the dataset, and Ann with a role granted all of them.
 */
async function seedPage(request: Parameters<typeof adminApi>[0]) {
  const call = await adminApi(request);
  const suffix = Date.now().toString(36);
  const p = (await call<{ _id: string }>('/api/common/project/create', { name: `Views page ${suffix}` }))._id;
  const code = `job${suffix}`;
  const A = `/api/admin/project/${p}`;
  const entity = await call<{ _id: string }>(`${A}/entity/create`, { name: 'Jobs', code });
  const fieldIds: Record<string, string> = {};
  for (const [name, field, type] of [
    ['Title', 'title', 'string'],
    ['Kind', 'kind', 'string'],
    ['Qty', 'qty', 'number'],
    ['Tag', 'tag', 'string'],
  ] as const)
    fieldIds[field] = (await call<{ _id: string }>(`${A}/${code}/field/create`, { name, field, type }))._id;
  for (let i = 1; i <= 9; i++)
    await call(`/api/admin/data/${p}/${code}/save`, {
      title: `Task ${i}`,
      kind: KINDS[(i - 1) % 3],
      qty: i,
      tag: 'red',
    });
  const ds = await call<{ _id: string }>(`/api/admin/dataset/${p}/create`, {
    name: 'Job sizes',
    _dataset: {
      base: entity._id,
      columns: [
        { key: 'job', expr: { ref: 't.title' } },
        { key: 'size', expr: { ref: 't.qty' } },
      ],
    },
    _release: {
      _display: {
        _entity: [
          { key: 'job', title: 'Job' },
          { key: 'size', title: 'Size' },
        ],
      },
    },
  });
  await call(`/api/admin/dataset/${p}/${ds._id}/release`, {});
  const at = (y: number) => ({ pc: { x: 0, y, w: 120, h: 50 }, mobile: { x: 0, y, w: 38, h: 50 } });
  const document = {
    id: 'draft',
    title: 'Jobs',
    version: 1,
    layout: {
      pc: { cols: 120, rowHeight: 10, width: 1200 },
      mobile: { cols: 38, rowHeight: 10, width: 375 },
    },
    widgets: [
      {
        id: 'jobs',
        kind: 'table',
        version: 1,
        props: { entity: entity._id, pageSize: 20, index: true, group: true, option: true },
        layout: at(0),
      },
      {
        id: 'sizes',
        kind: 'table',
        version: 1,
        props: {
          dataset: ds._id,
          pageSize: 5,
          sort: true,
          index: true,
          filter: true,
          refresh: true,
          option: true,
        },
        layout: at(52),
      },
    ],
  };
  const page = await call<{ _id: string }>(`/api/admin/page/${p}/create`, { name: 'Jobs', document });
  await call(`/api/admin/page/${p}/${page._id}/publish`, {});
  const list = await call<{ _id: string }>(`/api/admin/route/${p}/create`, {
    type: 'table',
    name: 'Job list',
    value: code,
  });
  const dsList = await call<{ _id: string }>(`/api/admin/route/${p}/create`, {
    type: 'table',
    name: 'Job sizes',
    value: ds._id,
  });
  const role = await call<{ _id: string }>(`/api/admin/auth/${p}/main/role/create`, {
    name: 'Planner',
    type: 'common',
  });
  await call(`/api/admin/auth/${p}/main/role/${role._id}/bind`, {
    route: [list._id, dsList._id],
    page: [page._id],
    entity: [entity._id],
    dataset: [ds._id],
  });
  const account = uniqueAccount('ann');
  await call(`/api/admin/user/${p}/create`, { role: role._id, account, pwd: 'secret123', name: 'Ann' });
  const ann = await adminApi(request, { user: account, pwd: 'secret123' });
  const bobAccount = uniqueAccount('bob');
  await call(`/api/admin/user/${p}/create`, {
    role: role._id,
    account: bobAccount,
    pwd: 'secret123',
    name: 'Bob',
  });
  const bob = await adminApi(request, { user: bobAccount, pwd: 'secret123' });
  return { call, ann, bob, project: p, code, entity: entity._id, dataset: ds._id, page: page._id, fieldIds };
}

test('on a page: one load per save, rows numbered per group, a dataset as a read-only view; a saved filter outlives a changed field', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const s = await seedPage(request);
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setViewportSize(DESKTOP);
  await signInWithToken(page, s.ann.token, s.project);

  // Every rows request of the table (count requests apart), opened as the server opens it.
  const url = `/api/app/simple/${s.project}/${s.entity}/query`;
  const rowLoads: number[] = [];
  page.on('request', (r) => {
    if (!r.url().endsWith(url)) return;
    const sent = r.postDataJSON() as { encrypted?: string; count?: boolean };
    const body = sent.encrypted ? open<{ count?: boolean }>(sent.encrypted, s.ann.token) : sent;
    if (!body.count) rowLoads.push(Date.now());
  });
  await page.goto(`/page/${s.page}`);
  const jobs = page.locator('[data-wid="jobs"] [data-testid="data-view"]');
  await expect(jobs.getByText('Task 1', { exact: true })).toBeVisible();
  await expect(jobs.getByTestId('view-total')).toContainText('Rows: 9');

  // Add a record through the widget's form: the rows load once, not once per listener.
  await page.waitForTimeout(1000);
  const before = rowLoads.length;
  await jobs.getByTestId('view-add').click();
  const form = page.getByTestId('row-form');
  await inputOf(form, 'input-title').fill('Task 10');
  await inputOf(form, 'input-kind').fill('alpha');
  await inputOf(form, 'input-qty').fill('10');
  await page.locator('.ant-modal:visible').getByRole('button', { name: 'Save' }).click();
  await expect(jobs.getByText('Task 10', { exact: true })).toBeVisible();
  await expect(jobs.getByTestId('view-total')).toContainText('Rows: 10');
  await page.waitForTimeout(1500);
  expect(rowLoads.length - before).toBe(1);

  // Grouped by kind, the index column counts each group's rows from 1: alpha holds 4 now.
  await pick(page, jobs.getByTestId('view-group'), 'Kind');
  await page.keyboard.press('Escape');
  await expect(jobs.getByTestId('group-head')).toHaveCount(3);
  const numbers = await jobs
    .locator('.ant-table-tbody tr.ant-table-row:not(.dv-group-row)')
    .evaluateAll((rows) => rows.map((r) => r.querySelector('td')?.textContent ?? ''));
  expect(numbers).toEqual(['1', '2', '3', '4', '1', '2', '3', '1', '2', '3']);

  // The dataset's table: the same view, read-only, paged by 5 and sorted on the server.
  const sizes = page.locator('[data-wid="sizes"] [data-testid="data-view"]');
  await expect(sizes.getByTestId('view-readonly')).toBeVisible();
  // The dataset reads the table: the record saved beside it shows without a refresh.
  await expect(sizes.getByTestId('view-total')).toContainText('Rows: 10');
  await expect(sizes.getByTestId('view-add')).toHaveCount(0);
  await sizes.locator('th', { hasText: 'Size' }).click();
  await sizes.locator('th', { hasText: 'Size' }).click();
  await expect(sizes.locator('.ant-table-tbody tr.ant-table-row').first()).toContainText('Task 10');
  await expect(sizes.locator('.ant-table-tbody tr.ant-table-row')).toHaveCount(5);
  // Filtered by a column: size greater than 7 → 8, 9, 10.
  await sizes.getByTestId('view-filter').click();
  const filter = page.getByTestId('table-filter');
  await filter.getByTestId('table-filter-add').click();
  await pick(page, filter.getByTestId('table-filter-field').first(), 'Size');
  // The operators follow the chosen field's type: pick once they are the number's.
  const op = filter.getByTestId('table-filter-op').first();
  await expect(async () => {
    await pick(page, op, 'greater than');
    await expect(op).toContainText('greater than', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await inputOf(filter, 'table-filter-value').fill('7');
  await filter.getByTestId('table-filter-apply').click();
  await expect(sizes.getByTestId('view-total')).toContainText('Rows: 3');
  await shot(page, 'data-views-page-dataset');

  // The dataset's list menu entry opens the same read-only view.
  await page.goto(`/home/${s.dataset}`);
  const entry = page.getByTestId('data-view');
  await expect(entry.getByTestId('view-readonly')).toBeVisible();
  await expect(entry.getByText('Task 4', { exact: true })).toBeVisible();
  await expect(entry.getByTestId('view-total')).toContainText('Rows: 10');

  // A saved filter on kind and tag; the builder then makes tag again as a number.
  const saved = await s.ann<{ id: string }>(`/api/app/view/${s.project}/${s.entity}/filters/save`, {
    name: 'Red alphas',
    type: 'private',
    filter: {
      conditions: [
        { field: 'kind', opt: 'eq', value: 'alpha' },
        { field: 'tag', opt: 'eq', value: 'red' },
      ],
      match: 'and',
    },
  });
  expect(saved.id).toBeTruthy();
  const F = `/api/admin/project/${s.project}/${s.code}/field`;
  await s.call(`${F}/${s.fieldIds.tag}/remove?confirm=1`);
  await s.call(`${F}/create`, { name: 'Tag', field: 'tag', type: 'number' });
  await page.goto(`/home/${s.code}`);
  const view = page.getByTestId('data-view');
  await expect(view.getByTestId('view-total')).toContainText('Rows: 10');
  await page.getByTestId('saved-filters').click();
  const item = page.getByTestId('saved-filter-item').filter({ hasText: 'Red alphas' });
  await expect(item.getByTestId('saved-filter-stale')).toBeVisible();
  await item.click();
  // The stale condition is said and left out; kind = alpha still applies (Task 1, 4, 7, 10).
  await expect(view.getByTestId('stale-filter')).toContainText('Tag (its type changed)');
  await expect(view.getByTestId('view-total')).toContainText('Rows: 4');
  await shot(page, 'data-views-stale-filter');
  expect(errors).toEqual([]);
});

test('a dataset view: its statistics row over the whole filtered set, and records another member adds show live', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const s = await seedPage(request);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setViewportSize(DESKTOP);
  await signInWithToken(page, s.ann.token, s.project);
  await page.goto(`/home/${s.dataset}`);
  const view = page.getByTestId('data-view');
  await expect(view.getByTestId('view-readonly')).toBeVisible();
  await expect(view.getByTestId('view-total')).toContainText('Rows: 9');
  // Statistics of the whole set (sizes 1..9), not of the page.
  await view.getByTestId('view-summary').click();
  await expect(view.getByTestId('summary-count')).toHaveText('9');
  await expect(view.getByTestId('summary-sum-size')).toContainText('45');
  await expect(view.getByTestId('summary-max-size')).toContainText('9');
  // Filtered: size greater than 5 → 6, 7, 8, 9.
  await view.getByTestId('view-filter').click();
  const filter = page.getByTestId('table-filter');
  await filter.getByTestId('table-filter-add').click();
  await pick(page, filter.getByTestId('table-filter-field').first(), 'Size');
  const op = filter.getByTestId('table-filter-op').first();
  await expect(async () => {
    await pick(page, op, 'greater than');
    await expect(op).toContainText('greater than', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await inputOf(filter, 'table-filter-value').fill('5');
  await filter.getByTestId('table-filter-apply').click();
  await expect(view.getByTestId('view-total')).toContainText('Rows: 4');
  await expect(view.getByTestId('summary-count')).toHaveText('4');
  await expect(view.getByTestId('summary-sum-size')).toContainText('30');
  await expect(view.getByTestId('summary-avg-size')).toContainText('7.5');

  // Bob adds a record to the dataset's table from the table's own view: Ann's dataset view shows it
  // without a reload, the statistics with it.
  const other = await browser.newContext({ viewport: DESKTOP });
  await signInWithToken(other, s.bob.token, s.project);
  const bob = await other.newPage();
  await bob.goto(`/home/${s.code}`);
  await expect(bob.getByTestId('data-view').getByText('Task 1', { exact: true })).toBeVisible();
  // Give the live channel of both a moment to join the project room.
  await bob.waitForTimeout(1000);
  await bob.getByTestId('view-add').click();
  const form = bob.getByTestId('row-form');
  await inputOf(form, 'input-title').fill('Task 10');
  await inputOf(form, 'input-qty').fill('10');
  await bob.locator('.ant-modal:visible').getByRole('button', { name: 'Save' }).click();
  await expect(bob.getByTestId('data-view').getByText('Task 10', { exact: true })).toBeVisible();
  await expect(view.getByText('Task 10', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(view.getByTestId('view-total')).toContainText('Rows: 5');
  await expect(view.getByTestId('summary-sum-size')).toContainText('40');
  // The filter stayed as it was: the view reloaded in place.
  await expect(view.getByTestId('view-filter')).toContainText('1');
  await other.close();
  await shot(page, 'data-views-dataset-live');
  expect(errors).toEqual([]);
});

test('large mode: 500 rows a page draw only the rows in view, scroll to the last, shift-click selects a range, a row opens its detail', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const s = await seed(request);
  // 600 rows in all: the 9 tasks, then "Bulk 1".."Bulk 591" in one list save.
  const call = await adminApi(request);
  await call(
    `/api/admin/data/${s.project}/${s.code}/save`,
    Array.from({ length: 591 }, (_, i) => ({ title: `Bulk ${i + 1}`, kind: 'alpha', qty: i })),
  );
  await page.setViewportSize(DESKTOP);
  await signInWithToken(page, s.ann, s.project);
  await page.goto(`/home/${s.code}`);
  const view = page.getByTestId('data-view');
  await expect(view.getByText('Task 1', { exact: true })).toBeVisible();
  await pick(page, page.locator('.ant-pagination-options .ant-select'), '500');

  // The large body: a page of 500 rows, of which only those in view (and a few either side) exist.
  const body = page.getByTestId('view-large-body');
  await expect(body.getByText('Task 1', { exact: true })).toBeVisible();
  const drawn = await body.locator('.dv-vrow').count();
  expect(drawn).toBeGreaterThan(5);
  expect(drawn).toBeLessThan(100);
  // Scrolled to the end: the page's last row (the 500th in insertion order) is drawn, the first is not.
  await body.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(body.getByText('Bulk 491', { exact: true })).toBeVisible();

  await expect(body.getByText('Task 1', { exact: true })).toHaveCount(0);
  await body.evaluate((el) => {
    el.scrollTop = 0;
  });
  await expect(body.getByText('Task 1', { exact: true })).toBeVisible();

  // A check box, then shift + the fifth row's: rows 1 to 5 are selected; the rows did not open.
  const check = (n: number) => body.locator('.dv-vrow').nth(n).locator('input[type="checkbox"]');
  await check(0).click();
  await expect(page.getByTestId('bulk-remove')).toContainText('(1)');
  await check(4).click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('bulk-remove')).toContainText('(5)');
  await expect(body.locator('.dv-vrow.ant-table-row-selected')).toHaveCount(5);
  await expect(page.locator('.ant-modal:visible')).toHaveCount(0);
  // Shift-click again clears the range from the last one clicked.
  await check(2).click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('bulk-remove')).toContainText('(2)');
  await shot(page, 'data-view-large-desktop');
  // The columns fill the width the view is given: no sideways scroll in the body, and the page does
  // not grow wider than the window (fitting the columns once widened the view on every redraw).
  await page.waitForTimeout(300);
  const widths = await body.evaluate((el) => ({
    body: el.scrollWidth - el.clientWidth,
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  }));
  expect(widths).toEqual({ body: 0, page: 0 });

  // A click on a row's cell opens its detail.
  await body.getByText('Task 7', { exact: true }).click();
  const detail = page.locator('.ant-modal:visible');
  await expect(detail).toContainText('Task 7');
});

test('large mode sideways: only the columns in view are drawn, each under its header, and a pinned column shows its edge shadow once scrolled', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const s = await seed(request);
  await page.setViewportSize(DESKTOP);
  await signInWithToken(page, s.ann, s.project);
  // Title pinned to the start; Kind and Qty wide: the rows overflow the view sideways.
  await page.addInitScript(
    ([key]) => {
      if (!localStorage.getItem(key))
        localStorage.setItem(
          key,
          JSON.stringify({ widths: { kind: 1500, qty: 1500 }, fixed: { title: 'left' } }),
        );
    },
    [`lc_view:${s.project}:${s.code}`] as const,
  );
  await page.goto(`/home/${s.code}`);
  const view = page.getByTestId('data-view');
  await expect(view.getByText('Task 1', { exact: true })).toBeVisible();
  await pick(page, page.locator('.ant-pagination-options .ant-select'), '500');
  const body = page.getByTestId('view-large-body');
  const row = body.locator('.dv-vrow', { has: page.getByText('Task 1', { exact: true }) });
  const title = row.locator('.ant-table-cell-fix-start');
  await expect(title).toHaveText('Task 1');
  // At the start: Kind in view, Qty and the actions far off to the side and not drawn.
  await expect(row.getByText('alpha', { exact: true })).toBeVisible();
  await expect(row.getByTestId('row-edit')).toHaveCount(0);
  await expect(title).toHaveClass(/ant-table-cell-fix-start-shadow/);
  await expect(title).not.toHaveClass(/ant-table-cell-fix-start-shadow-show/);

  // Scrolled to the end: the actions are drawn (under their header), Kind no longer is, and the
  // pinned Title stays at the body's start with its shadow.
  await body.evaluate((el) => {
    el.scrollLeft = el.scrollWidth;
  });
  await expect(row.getByTestId('row-edit')).toBeVisible();
  await expect(row.getByText('alpha', { exact: true })).toHaveCount(0);
  await expect(title).toHaveClass(/ant-table-cell-fix-start-shadow-show/);
  const x = async (loc: ReturnType<Page['locator']>) => (await loc.boundingBox())!.x;
  expect(Math.abs((await x(title)) - (await x(body)))).toBeLessThanOrEqual(1);
  const actionsHead = view.locator('.ant-table-thead th', { hasText: 'Actions' });
  const actionsCell = row.locator('.dv-vcell', { has: page.getByTestId('row-edit') });
  expect(Math.abs((await x(actionsCell)) - (await x(actionsHead)))).toBeLessThanOrEqual(1);
  await shot(page, 'data-view-large-sideways');

  // Back to the start: Kind is drawn again and the shadow goes.
  await body.evaluate((el) => {
    el.scrollLeft = 0;
  });
  await expect(row.getByText('alpha', { exact: true })).toBeVisible();
  await expect(title).not.toHaveClass(/ant-table-cell-fix-start-shadow-show/);
});
