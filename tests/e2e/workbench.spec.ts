/**
 * The builder's workbench as a new builder uses it: dev mode, a project, two tables (one field of
 * every type, relate and collection pointing at the second), rows through the grid, filter, sort, delete.
 */
import { expect, type Page, test } from '@playwright/test';
import { ADMIN, adminApi, pick, shot, signInUi } from './helpers.ts';

async function okModal(page: Page): Promise<void> {
  await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn-primary').click();
  await expect(page.locator('.ant-modal:visible')).toHaveCount(0);
}

async function createTable(page: Page, name: string, code?: string): Promise<void> {
  await page.getByTestId('new-table').click();
  await page.locator('#entity-form_name').fill(name);
  if (code) await page.locator('#entity-form_code').fill(code);
  await okModal(page);
  await expect(page.getByTestId('entity-screen').getByRole('heading')).toContainText(name);
}

interface FieldSpec {
  name: string;
  type: string;
  key?: string;
  relate?: string;
  decimals?: number;
  options?: string[];
}

async function addField(page: Page, f: FieldSpec): Promise<void> {
  await page.getByTestId('new-field').click();
  const form = page.getByTestId('field-form');
  await page.locator('#field-form_name').fill(f.name);
  if (f.type !== 'Text') await pick(page, form.locator('#field-form_type'), f.type);
  if (f.key) await page.locator('#field-form_field').fill(f.key);
  if (f.relate) await pick(page, form.locator('#field-form_relate'), f.relate);
  if (f.decimals !== undefined) await page.locator('#field-form_decimals').fill(String(f.decimals));
  if (f.options) {
    await page.locator('#field-form_listEnable').click();
    for (const [i, o] of f.options.entries()) {
      await form.getByRole('button', { name: 'Add option' }).click();
      await form.getByPlaceholder(`Option ${i + 1}`).fill(o);
    }
  }
  await okModal(page);
  await expect(
    page.getByTestId('field-editor').getByRole('cell', { name: f.name, exact: true }),
  ).toBeVisible();
}

test.use({ actionTimeout: 20_000 });

test('builder models data and works rows in the workbench', async ({ page }) => {
  test.setTimeout(240_000);
  await signInUi(page, ADMIN.user, ADMIN.pwd);
  await expect(page.getByTestId('project-list')).toBeVisible();

  // Enter dev mode from the app toolbar; the mode survives a reload.
  await page.getByTestId('manage-mode').click();
  await expect(page).toHaveURL(/\/dev\/data$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/dev\/data$/);

  // A new project, chosen at once.
  const projectName = `WB ${Date.now().toString(36)}`;
  await page.getByTestId('new-project').click();
  await page.locator('#wb-create-project_name').fill(projectName);
  await okModal(page);
  await expect(page.getByTestId('project-switcher')).toContainText(projectName);
  await expect(page.getByTestId('table-list')).toContainText('No tables yet');

  // A module and the related table, its code derived from the Chinese name as pinyin.
  await page.getByTestId('new-module').click();
  await page.locator('#name-modal_name').fill('Sales');
  await okModal(page);
  await expect(page.getByTestId('table-list')).toContainText('Sales');
  await page.getByTestId('new-table').click();
  await page.locator('#entity-form_name').fill('客户');
  await expect(page.locator('#entity-form_code')).toHaveValue('kehu');
  await pick(page, page.locator('#entity-form_module'), 'Sales');
  await okModal(page);
  await expect(page.getByTestId('entity-screen').getByRole('heading')).toContainText('客户');
  await page.getByTestId('new-field').click();
  await page.locator('#field-form_name').fill('名称');
  await expect(page.locator('#field-form_field')).toHaveValue('mingcheng');
  await okModal(page);

  // Two customers through the grid.
  await page.getByRole('tab', { name: 'Rows' }).click();
  for (const who of ['Acme', 'Globex']) {
    await page.getByTestId('row-add').click();
    await page.locator('#row-form_mingcheng').fill(who);
    await okModal(page);
  }
  await expect(page.getByTestId('row-count')).toHaveText('Rows: 2');

  // The main table, one field of every type; a bad key is refused beside its input.
  await createTable(page, 'Orders', 'orders');
  await page.getByTestId('new-field').click();
  await page.locator('#field-form_name').fill('Bad');
  await page.locator('#field-form_field').fill('_id');
  await okModal(page).catch(() => undefined);
  await expect(page.locator('#field-form_field_help')).toBeVisible();
  await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn:not(.ant-btn-primary)').click();

  await addField(page, { name: 'Title', type: 'Text', key: 'title' });
  await addField(page, { name: 'Status', type: 'Text', key: 'status', options: ['Open', 'Closed'] });
  await addField(page, { name: 'Qty', type: 'Number', key: 'qty', decimals: 2 });
  await addField(page, { name: 'Due', type: 'Date', key: 'due' });
  await addField(page, { name: 'At', type: 'Time', key: 'at' });
  await addField(page, { name: 'Photo', type: 'Image', key: 'photo' });
  await addField(page, { name: 'Customer', type: 'Relation', key: 'customer', relate: '客户' });
  await addField(page, { name: 'Tags', type: 'Collection', key: 'tags', relate: '客户' });
  // Reorder: Status goes below Qty.
  const statusRow = page.getByTestId('field-editor').locator('tr', { hasText: 'Status' });
  await statusRow.getByRole('button', { name: 'Move down' }).click();
  await expect(page.getByTestId('field-editor').locator('tbody tr').nth(2)).toContainText('Status');
  await shot(page, 'workbench-fields');
  await page
    .getByTestId('field-editor')
    .locator('tr', { hasText: 'Qty' })
    .getByRole('button', { name: 'Edit' })
    .click();
  await expect(page.locator('#field-form_decimals')).toHaveValue('2');
  await shot(page, 'workbench-field-editor');
  await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn:not(.ant-btn-primary)').click();

  // Rows: a relate value picked by searching the other table.
  await page.getByRole('tab', { name: 'Rows' }).click();
  const rows = [
    { title: 'First', qty: '3', customer: 'Acme' },
    { title: 'Second', qty: '10', customer: 'Globex' },
    { title: 'Third', qty: '5.555' },
  ];
  for (const r of rows) {
    await page.getByTestId('row-add').click();
    await page.locator('#row-form_title').fill(r.title);
    await page.locator('#row-form_qty').fill(r.qty);
    if (r.customer) await pick(page, page.locator('#row-form_customer'), r.customer, r.customer.slice(0, 3));
    await okModal(page);
  }
  const grid = page.getByTestId('rows-grid');
  await expect(page.getByTestId('row-count')).toHaveText('Rows: 3');
  await expect(grid.getByTestId('cell-customer').first()).toContainText('Acme');
  await expect(grid.getByTestId('cell-qty').nth(2)).toHaveText('5.56');

  // Inline edits: option list, date, time, collection.
  await grid.getByTestId('cell-status').first().click();
  await pick(page, grid.getByTestId('input-status'), 'Closed');
  await expect(grid.getByTestId('cell-status').first()).toHaveText('Closed');
  await grid.getByTestId('cell-due').first().click();
  await grid.locator('.wb-cell-edit input').fill('2026-03-15');
  await page.keyboard.press('Enter');
  await expect(grid.getByTestId('cell-due').first()).toHaveText('2026-03-15');
  await grid.getByTestId('cell-title').nth(1).click();
  await grid.getByTestId('input-title').fill('Second (edited)');
  await page.keyboard.press('Enter');
  await expect(grid.getByTestId('cell-title').nth(1)).toHaveText('Second (edited)');

  // A wider window for the grid's picture, so the relation columns show.
  await page.setViewportSize({ width: 1700, height: 800 });
  await page.mouse.move(0, 0);
  await shot(page, 'workbench-grid');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Filter: Qty greater than 4.
  await page.getByTestId('filter-open').click();
  await page.getByTestId('filter-add').click();
  await pick(page, page.getByTestId('filter-field'), 'Qty');
  await pick(page, page.getByTestId('filter-op'), 'greater than');
  await page.getByTestId('filter-builder').locator('.ant-input-number input').fill('4');
  await page.getByTestId('filter-apply').click();
  await expect(page.getByTestId('row-count')).toHaveText('Rows: 2');
  await expect(page.getByTestId('filter-open')).toContainText('Filter (1)');

  // Sort by Qty descending (two clicks on the header).
  const qtyHeader = grid.locator('.ant-table-thead th', { hasText: 'Qty' });
  await qtyHeader.click();
  await expect(grid.getByTestId('cell-qty').first()).toHaveText('5.56');
  await qtyHeader.click();
  await expect(grid.getByTestId('cell-qty').first()).toHaveText('10.00');

  // Delete a row: the filtered count drops.
  await grid.getByTestId('row-remove').first().click();
  await page.locator('.ant-modal-confirm .ant-btn-dangerous').click();
  await expect(page.getByTestId('row-count')).toHaveText('Rows: 1');
  await expect(page.locator('.ant-modal-confirm')).toHaveCount(0);

  // The workbench overview: modules and tables, the related table's rows.
  await page.getByTestId('table-link').filter({ hasText: '客户' }).click();
  await page.getByRole('tab', { name: 'Rows' }).click();
  await expect(page.getByTestId('row-count')).toHaveText('Rows: 2');
  await shot(page, 'workbench');
});

test('a long page is drawn by the virtual list', async ({ page, request }) => {
  test.setTimeout(240_000);
  const call = await adminApi(request);
  const project = await call<{ _id: string }>('/api/common/project/create', { name: 'Virtual rows' });
  const P = `/api/admin/project/${project._id}`;
  const entity = await call<{ _id: string }>(`${P}/entity/create`, { name: 'Items', code: 'items' });
  await call(`${P}/items/field/create`, { name: 'Name', type: 'string', field: 'name' });
  await call(`${P}/items/field/create`, { name: 'N', type: 'number', field: 'n' });
  const total = 600;
  for (let i = 0; i < total; i += 20) {
    await Promise.all(
      Array.from({ length: 20 }, (_, k) =>
        call(`/api/admin/data/${project._id}/items/save`, { name: `Item ${i + k}`, n: i + k }),
      ),
    );
  }

  await signInUi(page, ADMIN.user, ADMIN.pwd);
  await expect(page.getByTestId('project-list')).toBeVisible();
  await page.evaluate((id) => {
    localStorage.setItem('lc_project', id);
    localStorage.setItem('lc_mode', 'dev');
  }, project._id);
  // No count(*) before the first rows: the page answers first; the count call's answer (one row,
  // told apart by its small size) is held here until the rows and the bound "≥ 500" have shown.
  let counts = 0;
  let releaseCount: () => void = () => {};
  const countHeld = new Promise<void>((resolve) => {
    releaseCount = resolve;
  });
  await page.route(`**/api/admin/data/${project._id}/${entity._id}/query`, async (route) => {
    const res = await route.fetch();
    const body = await res.body();
    if (body.length < 8000) {
      counts += 1;
      await countHeld;
    }
    await route.fulfill({ response: res, body });
  });
  await page.goto(`/dev/data/${entity._id}?tab=rows`);
  const grid = page.getByTestId('rows-grid');
  await expect(page.getByTestId('row-count')).toHaveText('Rows: at least 500');
  await expect(grid.getByTestId('cell-name').first()).toBeVisible();
  await expect.poll(() => counts).toBeGreaterThan(0);
  releaseCount();
  await expect(page.getByTestId('row-count')).toHaveText(`Rows: ${total}`);
  await page.unroute(`**/api/admin/data/${project._id}/${entity._id}/query`);
  await expect(grid.locator('.ant-table-tbody-virtual')).toBeVisible();
  // 500 rows on the page, only a screenful of them in the document.
  expect(await grid.getByTestId('cell-name').count()).toBeLessThan(60);
  // Sorted by N on the server, the page's last row is 499.
  await grid.locator('.ant-table-thead th', { hasText: /^N$/ }).click();
  await expect(grid.getByTestId('cell-n').first()).toHaveText('0');
  // Scroll to the end (again while the sorted page may still be re-rendering the list).
  const last = grid.getByTestId('cell-name').filter({ hasText: /^Item 499$/ });
  await expect
    .poll(async () => {
      await grid.locator('.ant-table-tbody-virtual-holder').evaluate((el) => {
        el.scrollTop = el.scrollHeight;
      });
      return last.count();
    })
    .toBeGreaterThan(0);
  await expect(last).toBeVisible();
  await shot(page, 'workbench-grid-virtual');

  // Bulk delete two rows.
  await grid.locator('.ant-table-row').first().locator('.ant-checkbox-input').check();
  await grid.locator('.ant-table-row').nth(1).locator('.ant-checkbox-input').check();
  await page.getByTestId('rows-remove').click();
  await page.locator('.ant-modal-confirm .ant-btn-dangerous').click();
  await expect(page.getByTestId('row-count')).toHaveText(`Rows: ${total - 2}`);
});
