/**
 * Datasets in the browser: a builder builds a dataset over orders joined to their customers in the
 * workbench editor (a group and a sum), sees the live preview, releases it; the dataset then shows
 * as a list menu entry, in a table and a column chart on a published page, and as the role home an
 * end user lands on after signing in. A member whose role is not granted the dataset is refused.
 */
import { expect, type Page, test } from '@playwright/test';
import { adminApi, pick, shot, signInUi, signInWithToken, uniqueAccount } from './helpers.ts';

const at = (y: number, h = 6) => ({ pc: { x: 0, y, w: 100, h }, mobile: { x: 0, y, w: 38, h } });

/** A project with the demo's two tables: customers (name, level) and orders (no, customer, amount). */
async function seed(request: Parameters<typeof adminApi>[0]) {
  const call = await adminApi(request);
  const suffix = Date.now().toString(36);
  const p = (await call<{ _id: string }>('/api/common/project/create', { name: `Datasets ${suffix}` }))._id;
  const P = `/api/admin/project/${p}`;
  await call(`${P}/entity/create`, { name: 'Customers', code: 'customer' });
  await call(`${P}/customer/field/create`, { name: 'Name', type: 'string', field: 'name' });
  await call(`${P}/customer/field/create`, { name: 'Level', type: 'string', field: 'level' });
  await call(`${P}/entity/create`, { name: 'Orders', code: 'order' });
  await call(`${P}/order/field/create`, { name: 'No', type: 'string', field: 'no' });
  await call(`${P}/order/field/create`, {
    name: 'Customer',
    type: 'relate',
    field: 'customer',
    relate: 'customer',
  });
  await call(`${P}/order/field/create`, { name: 'Amount', type: 'number', field: 'amount' });
  const D = `/api/admin/data/${p}`;
  const ids: Record<string, string> = {};
  for (const [name, level] of [
    ['Ann', 'Gold'],
    ['Bob', 'Gold'],
    ['Cy', 'Silver'],
  ] as const)
    ids[name] = (await call<{ _id: string }>(`${D}/customer/save`, { name, level }))._id;
  for (const [no, who, amount] of [
    ['SO-1', 'Ann', 100],
    ['SO-2', 'Bob', 50],
    ['SO-3', 'Cy', 30],
  ] as const)
    await call(`${D}/order/save`, { no, customer: ids[who], amount });
  return { call, p };
}

/** An antd multiple select: choose, then close its list. */
async function pickMany(page: Page, select: ReturnType<Page['getByTestId']>, text: string) {
  await pick(page, select, text);
  await page.keyboard.press('Escape');
}

test('a builder builds, previews and releases a dataset; end users see its rows and chart, others are refused', async ({
  page,
  browser,
  request,
}) => {
  const { call, p } = await seed(request);
  await signInWithToken(page, call.token, p);
  await page.goto('/dev/datasets');
  await page.getByTestId('ds-new-name').fill('Sales by level');
  await page.getByTestId('ds-create').click();
  await expect(page.getByTestId('ds-name')).toHaveValue('Sales by level');

  // Orders joined to their customers; level from the customer, amount from the order.
  await pick(page, page.getByTestId('ds-base'), 'Orders');
  await page.getByTestId('ds-add-join').click();
  await pick(page, page.getByTestId('ds-join-field'), 'Customer → Customers');
  await page.getByTestId('ds-add-column').click();
  await page.getByTestId('ds-column-key').nth(0).fill('level');
  await pick(page, page.getByTestId('ds-column-ref').nth(0), 'j1 · Customers · Level');
  await page.getByTestId('ds-add-column').click();
  await page.getByTestId('ds-column-key').nth(1).fill('amount');
  await pick(page, page.getByTestId('ds-column-ref').nth(1), 't · Orders · Amount');
  // The live preview shows rows before anything is saved or grouped.
  const preview = page.getByTestId('ds-preview');
  await expect(preview.getByRole('cell', { name: '100' })).toBeVisible();
  await expect(page.getByTestId('ds-preview-count')).toHaveText('3 rows in all');

  // Group by level with the sum of the amounts.
  await pickMany(page, page.getByTestId('ds-group'), 'level');
  await page.getByTestId('ds-add-aggregate').click();
  await page.getByTestId('ds-aggregate-key').fill('total');
  await pick(page, page.getByTestId('ds-aggregate-fn'), 'Sum');
  await pick(page, page.getByTestId('ds-aggregate-of'), 'amount');
  await expect(page.getByTestId('ds-preview-count')).toHaveText('2 rows in all');
  const gold = preview.getByRole('row', { name: /Gold/ });
  await expect(gold.getByRole('cell', { name: '150' })).toBeVisible();
  await expect(preview.getByRole('row', { name: /Silver/ }).getByRole('cell', { name: '30' })).toBeVisible();

  // The displayed columns with their titles, then release.
  const display = page.getByTestId('ds-display');
  await display.getByLabel('Shown level').check();
  await display.getByLabel('Title level').fill('Level');
  await display.getByLabel('Shown total').check();
  await display.getByLabel('Title total').fill('Total');
  await shot(page, 'dataset-editor');
  await page.getByTestId('ds-release').click();
  await expect(page.getByTestId('ds-released')).toHaveText('released v1');
  const list = await call<{ _id: string; _name: string; _version: number | null }[]>(
    `/api/admin/dataset/${p}/list`,
  );
  const ds = list.find((d) => d._name === 'Sales by level')!;
  expect(ds._version).toBe(1);

  // A list menu entry, and a published page with a table and a column chart over the dataset.
  const route = await call<{ _id: string }>(`/api/admin/route/${p}/create`, {
    type: 'table',
    name: 'Sales',
    value: ds._id,
  });
  const doc = {
    id: 'x',
    title: 'Sales',
    version: 1,
    layout: {
      pc: { cols: 120, rowHeight: 10, width: 1200 },
      mobile: { cols: 38, rowHeight: 10, width: 375 },
    },
    widgets: [
      {
        id: 'chart',
        kind: 'chart-column',
        version: 1,
        props: { title: 'Sales chart', dataset: ds._id, labelKey: 'level', valueKey: 'total' },
        layout: at(0, 30),
      },
      {
        id: 'rows',
        kind: 'table',
        version: 1,
        props: { dataset: ds._id, pageSize: 10 },
        layout: at(32, 24),
      },
    ],
  };
  const pg = await call<{ _id: string }>(`/api/admin/page/${p}/create`, {
    name: 'Sales page',
    document: doc,
  });
  await call(`/api/admin/page/${p}/${pg._id}/publish`, {});
  const R = `/api/admin/auth/${p}/main/role`;
  const viewer = await call<{ _id: string }>(`${R}/create`, { name: 'Viewer', type: 'common' });
  await call(`${R}/${viewer._id}/bind`, { route: [route._id], page: [pg._id], dataset: [ds._id] });
  await call(`${R}/${viewer._id}/update`, { home: { type: 'dataset', value: ds._id } });
  const other = await call<{ _id: string }>(`${R}/create`, { name: 'Other', type: 'common' });
  await call(`${R}/${other._id}/bind`, { page: [pg._id] });
  const account = uniqueAccount('viewer');
  await call(`/api/admin/user/${p}/create`, { role: viewer._id, account, pwd: 'secret123', name: 'Vera' });
  const outsider = uniqueAccount('other');
  await call(`/api/admin/user/${p}/create`, {
    role: other._id,
    account: outsider,
    pwd: 'secret123',
    name: 'Otto',
  });

  // The end user signs in and lands on the dataset (the role's home).
  const ctx = await browser.newContext({ locale: 'en-US' });
  const user = await ctx.newPage();
  await user.addInitScript(() => localStorage.setItem('lang', 'en'));
  await signInUi(user, account, 'secret123');
  await expect(user).toHaveURL(new RegExp(`/dataset/${ds._id}$`));
  const home = user.getByTestId('dataset-screen');
  await expect(home.getByRole('columnheader', { name: 'Total' })).toBeVisible();
  await expect(home.getByRole('row', { name: /Gold/ }).getByRole('cell', { name: '150' })).toBeVisible();
  await shot(user, 'dataset-role-home');

  // The menu entry shows the same rows.
  await user.getByRole('menuitem', { name: 'Sales' }).first().click();
  const entry = user.getByTestId('list-screen');
  await expect(entry.getByRole('row', { name: /Silver/ }).getByRole('cell', { name: '30' })).toBeVisible();

  // The published page: the table's rows and the chart drawn from the dataset.
  await user.goto(`/page/${pg._id}`);
  const table = user.locator('[data-wid="rows"]');
  await expect(table.getByRole('row', { name: /Gold/ })).toBeVisible();
  await expect(table.getByText('150')).toBeVisible();
  const chart = user.locator('[data-wid="chart"]');
  await expect(chart.locator('canvas')).toBeVisible();
  await shot(user, 'dataset-page-chart');
  await ctx.close();

  // A role without the dataset grant: the page draws, the dataset answers no rows (refused).
  const otto = await adminApi(request, { user: outsider, pwd: 'secret123' });
  const refused = await request.post(`/api/app/ds/${p}/${ds._id}/show`, {
    headers: { token: otto.token },
    data: {},
  });
  expect(((await refused.json()) as { error: number }).error).toBe(1102);
  const ctx2 = await browser.newContext({ locale: 'en-US' });
  const outsiderPage = await ctx2.newPage();
  await signInWithToken(outsiderPage, otto.token, p);
  await outsiderPage.goto(`/page/${pg._id}`);
  await expect(outsiderPage.locator('[data-wid="chart"]')).toBeVisible();
  await expect(outsiderPage.locator('[data-wid="rows"]').getByText('150')).toHaveCount(0);
  await outsiderPage.goto(`/dataset/${ds._id}`);
  await expect(outsiderPage).toHaveURL(/\/no-authority$/);
  await ctx2.close();
});
