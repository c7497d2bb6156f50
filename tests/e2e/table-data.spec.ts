/**
 * A published list page as an end user (a member, not the builder) uses it: a column header sorts on
 * the server (ascending, descending, off) with the pager starting again, the search box narrows the
 * rows to those whose text fields hold the words (server-side, once typing pauses, back on page 1),
 * and the filter control narrows by field, operator and value. The first data request asks for no
 * count; the count follows in a request of its own, and until it answers the table says "at least n".
 */
import { expect, type Page, type Request, test } from '@playwright/test';
import { open } from '../../src/shared/envelope.ts';
import { adminApi, DESKTOP, pick, shot, signInWithToken, uniqueAccount } from './helpers.ts';

const LAYOUT = {
  pc: { cols: 120, rowHeight: 10, width: 1200 },
  mobile: { cols: 38, rowHeight: 10, width: 375 },
};
const ROWS = 25;
const pad = (n: number) => String(n).padStart(2, '0');
/** A permutation of 1..25 unlike the insertion order: Item 22 has the least, Item 04 the most. */
const qtyOf = (i: number) => ((i * 7 + 3) % ROWS) + 1;
const COLOURS = ['red', 'blue', 'green'];

interface QueryBody {
  query?: unknown;
  page?: { index: number; size: number };
  sort?: { field: string; order: string }[];
  count?: boolean;
}

async function seed(request: Parameters<typeof adminApi>[0]) {
  const call = await adminApi(request);
  const suffix = Date.now().toString(36);
  const p = (await call<{ _id: string }>('/api/common/project/create', { name: `Shop ${suffix}` }))._id;
  const code = `prod${suffix}`;
  const entity = await call<{ _id: string }>(`/api/admin/project/${p}/entity/create`, {
    name: 'Products',
    code,
  });
  for (const [name, field, type] of [
    ['Name', 'name', 'string'],
    ['Colour', 'colour', 'string'],
    ['Qty', 'qty', 'number'],
  ] as const)
    await call(`/api/admin/project/${p}/${code}/field/create`, { name, field, type });
  for (let i = 0; i < ROWS; i++)
    await call(`/api/admin/data/${p}/${code}/save`, {
      name: `Item ${pad(i + 1)}`,
      colour: COLOURS[i % 3],
      qty: qtyOf(i),
    });
  const document = {
    id: 'draft',
    title: 'Products',
    version: 1,
    layout: LAYOUT,
    widgets: [
      {
        id: 'products',
        kind: 'table',
        version: 1,
        // What the List-page template gives a table, with pages of 10 and a refresh button.
        props: {
          entity: entity._id,
          pageSize: 10,
          search: true,
          filter: true,
          sort: true,
          index: true,
          refresh: true,
        },
        layout: { pc: { x: 0, y: 0, w: 120, h: 60 }, mobile: { x: 0, y: 0, w: 38, h: 60 } },
      },
    ],
  };
  const page = await call<{ _id: string }>(`/api/admin/page/${p}/create`, { name: 'Products', document });
  await call(`/api/admin/page/${p}/${page._id}/publish`, {});
  const role = await call<{ _id: string }>(`/api/admin/auth/${p}/main/role/create`, {
    name: 'Clerk',
    type: 'common',
  });
  await call(`/api/admin/auth/${p}/main/role/${role._id}/bind`, { page: [page._id], entity: [entity._id] });
  const account = uniqueAccount('shop');
  await call(`/api/admin/user/${p}/create`, { role: role._id, account, pwd: 'secret123', name: 'Sam' });
  const member = await adminApi(request, { user: account, pwd: 'secret123' });
  return { project: p, code, entity: entity._id, page: page._id, token: member.token, call };
}

/** The input of a box marked `id`, whether antd put the mark on the input or on its wrapper. */
const inputOf = (scope: Page | ReturnType<Page['locator']>, id: string) =>
  scope.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first();

/** The names in the table's rows, top to bottom. */
const names = (page: Page) =>
  page.locator('.ant-table-tbody tr.ant-table-row td:nth-child(2)').allInnerTexts();

test('a published table sorts, searches and filters on the server; the count comes after the rows', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const s = await seed(request);
  await page.setViewportSize(DESKTOP);
  await signInWithToken(page, s.token, s.project);

  // Every data request of the table, opened as the server opens it.
  const url = `/api/app/simple/${s.project}/${s.entity}/query`;
  const bodyOf = (r: Request): QueryBody => {
    const sent = r.postDataJSON() as { encrypted?: string } & QueryBody;
    return sent.encrypted ? open<QueryBody>(sent.encrypted, s.token) : sent;
  };
  const queries: QueryBody[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith(url)) queries.push(bodyOf(r));
  });
  // The count call is held until the rows and the bound have shown.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**${url}`, async (route) => {
    if (bodyOf(route.request()).count) await held;
    await route.continue();
  });

  await page.goto(`/page/${s.page}`);
  const table = page.locator('.lc-page .ant-table');
  const total = page.getByTestId('table-total');
  await expect(table.getByText('Item 01', { exact: true })).toBeVisible();
  await expect(total).toHaveText('at least 10 rows');
  // The first request asks for the first page and no count; the count is a request of its own.
  expect(queries[0]).toMatchObject({ page: { index: 1, size: 10 } });
  expect(queries[0]?.count).toBeUndefined();
  await expect.poll(() => queries.filter((q) => q.count).length).toBe(1);
  expect(queries.find((q) => q.count)).toMatchObject({ page: { index: 1, size: 1 }, count: true });
  await shot(page, 'table-data-first-paint');
  release();
  await expect(total).toHaveText('25 rows');
  await page.unroute(`**${url}`);
  expect(await names(page)).toEqual(Array.from({ length: 10 }, (_, i) => `Item ${pad(i + 1)}`));

  // Sort by Qty: ascending, descending, off — each a server round trip that starts at page 1.
  await page.locator('.ant-pagination-item-2').click();
  await expect(table.getByText('Item 11', { exact: true })).toBeVisible();
  // The index column counts on from the rows of the pages before.
  await expect(table.locator('.ant-table-tbody tr.ant-table-row td:nth-child(1)').first()).toHaveText('11');
  const qty = table.locator('.ant-table-thead th', { hasText: /^Qty$/ });
  await qty.click();
  await expect.poll(() => names(page).then((n) => n[0])).toBe('Item 22');
  expect(queries.at(-1)?.sort).toEqual([{ field: 'qty', order: 'asc' }]);
  await expect(page.locator('.ant-pagination-item-active')).toHaveText('1');
  const ascending = await table.locator('.ant-table-tbody tr.ant-table-row td:nth-child(4)').allInnerTexts();
  expect(ascending).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
  await shot(page, 'table-data-sorted');
  await qty.click();
  await expect.poll(() => names(page).then((n) => n[0])).toBe('Item 04');
  expect(queries.at(-1)?.sort).toEqual([{ field: 'qty', order: 'desc' }]);
  // Page 2 of the descending order holds quantities 15..6, from the server.
  await page.locator('.ant-pagination-item-2').click();
  await expect
    .poll(() => table.locator('.ant-table-tbody tr.ant-table-row td:nth-child(4)').allInnerTexts())
    .toEqual(['15', '14', '13', '12', '11', '10', '9', '8', '7', '6']);
  expect(queries.at(-1)).toMatchObject({
    page: { index: 2, size: 10 },
    sort: [{ field: 'qty', order: 'desc' }],
  });
  await qty.click();
  await expect.poll(() => names(page)).toEqual(Array.from({ length: 10 }, (_, i) => `Item ${pad(i + 1)}`));
  expect(queries.at(-1)?.sort).toBeUndefined();

  // Search from page 2: only the rows whose text holds the words, on page 1, counted exactly.
  await page.locator('.ant-pagination-item-2').click();
  await expect(table.getByText('Item 11', { exact: true })).toBeVisible();
  await inputOf(page, 'table-search').pressSequentially('Item 2');
  await expect
    .poll(() => names(page))
    .toEqual(['Item 20', 'Item 21', 'Item 22', 'Item 23', 'Item 24', 'Item 25']);
  await expect(total).toHaveText('6 rows');
  await expect(page.locator('.ant-pagination-item-active')).toHaveText('1');
  expect(queries.at(-1)).toMatchObject({
    page: { index: 1, size: 10 },
    query: {
      $or: [
        { field: 'name', opt: 'contain', value: 'Item 2' },
        { field: 'colour', value: 'Item 2' },
      ],
    },
  });
  // Text fields only: the colour matches too, and a search is literal (no wildcards).
  await inputOf(page, 'table-search').fill('green');
  await expect
    .poll(() => names(page))
    .toEqual(['Item 03', 'Item 06', 'Item 09', 'Item 12', 'Item 15', 'Item 18', 'Item 21', 'Item 24']);
  await inputOf(page, 'table-search').fill('%');
  await expect.poll(() => names(page)).toEqual([]);
  await shot(page, 'table-data-search-none');
  await inputOf(page, 'table-search').fill('');
  await expect(total).toHaveText('25 rows');

  // Filter: Qty greater than 20, then also Colour equals red.
  await page.getByTestId('table-filter-open').click();
  const filter = page.getByTestId('table-filter');
  await filter.getByTestId('table-filter-add').click();
  await pick(page, filter.getByTestId('table-filter-field'), 'Qty');
  await pick(page, filter.getByTestId('table-filter-op'), 'greater than');
  await inputOf(filter, 'table-filter-value').fill('20');
  await shot(page, 'table-data-filter');
  await filter.getByTestId('table-filter-apply').click();
  await expect(total).toHaveText('5 rows');
  const big = await table.locator('.ant-table-tbody tr.ant-table-row td:nth-child(4)').allInnerTexts();
  expect(big.map(Number).sort((a, b) => a - b)).toEqual([21, 22, 23, 24, 25]);
  expect(queries.at(-1)?.query).toEqual({ $and: [{ field: 'qty', type: 'number', opt: 'gt', value: 20 }] });
  await expect(page.getByTestId('table-filter-open')).toHaveText('Filter (1)');
  await page.getByTestId('table-filter-open').click();
  await filter.getByTestId('table-filter-add').click();
  const second = filter.getByTestId('table-filter-row').nth(1);
  await pick(page, second.getByTestId('table-filter-field'), 'Colour');
  await pick(page, second.getByTestId('table-filter-op'), 'equals');
  await inputOf(second, 'table-filter-value').fill('red');
  await filter.getByTestId('table-filter-apply').click();
  // qty > 20 and red: i % 3 == 0 and qty(i) > 20.
  const expected = Array.from({ length: ROWS }, (_, i) => i)
    .filter((i) => i % 3 === 0 && qtyOf(i) > 20)
    .map((i) => `Item ${pad(i + 1)}`);
  expect(expected).toEqual(['Item 04', 'Item 07', 'Item 25']);
  await expect(total).toHaveText(`${expected.length} rows`);
  expect(await names(page)).toEqual(expected);
  await shot(page, 'table-data-filtered');
  // Cleared, every row is back.
  // (Opened right after the last apply closed it, the popover can still be animating out under load
  // and swallow the click: open it again until Clear is taken, as a user would.)
  await expect(async () => {
    if (!(await filter.getByTestId('table-filter-clear').isVisible()))
      await page.getByTestId('table-filter-open').click();
    await filter.getByTestId('table-filter-clear').click({ timeout: 5000 });
    await expect(total).toHaveText('25 rows', { timeout: 5000 });
  }).toPass({ timeout: 60_000 });

  // Someone adds a row: the refresh button loads the page and its count again.
  await s.call(`/api/admin/data/${s.project}/${s.code}/save`, { name: 'Item 26', colour: 'red', qty: 26 });
  await page.locator('.ant-pagination-item-3').click();
  await expect(table.getByText('Item 21', { exact: true })).toBeVisible();
  await page.getByTestId('table-refresh').click();
  await expect(table.getByText('Item 26', { exact: true })).toBeVisible();
  await expect(total).toHaveText('26 rows');
});
