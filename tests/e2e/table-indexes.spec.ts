/**
 * Indexes that follow use, as a builder meets them (issue 19): a list sorted the same way again and
 * again gets an index built by the server; the workbench's table screen (Indexes tab) and the owner's
 * /system/data/{entity} show it in one and the same panel, with its use count; the builder pins it
 * in one place, sees it pinned in the other, and drops it there. Runs on a server of its own whose
 * indexer counts every run as slow (AUTO_INDEX_SLOW_MS=0), so a handful of rows is enough.
 */
import { expect, request as pwRequest, test } from '@playwright/test';
import { adminApi, DESKTOP, PHONE, shot, signInWithToken, watchErrors } from './helpers.ts';
import { OwnServer } from './own-server.ts';

let server: OwnServer;

test.beforeAll(async () => {
  server = await OwnServer.create({ AUTO_INDEX_SLOW_MS: '0', AUTO_INDEX_RECUR: '2' });
  await server.start();
});

test.afterAll(async () => {
  await server?.dispose();
});

test('a recurring sort gets its index; one panel in the workbench and /system/data shows, pins and drops it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const ctx = await pwRequest.newContext({ baseURL: server.url });
  const call = await adminApi(ctx);
  const { _id: p } = await call<{ _id: string }>('/api/common/project/create', { name: 'Indexed' });
  const A = `/api/admin/project/${p}`;
  const entity = await call<{ _id: string }>(`${A}/entity/create`, { name: 'Orders', code: 'orders' });
  for (const [name, field, type] of [
    ['Title', 'title', 'string'],
    ['Region', 'region', 'string'],
    ['Qty', 'qty', 'number'],
  ] as const)
    await call(`${A}/orders/field/create`, { name, field, type });
  await call(
    `/api/admin/data/${p}/orders/save`,
    Array.from({ length: 8 }, (_, i) => ({ title: `Order ${i}`, region: i % 2 ? 'north' : 'south', qty: i })),
  );
  const IX = `/api/admin/data/${p}/orders/indexes`;
  const sorted = () =>
    call(`/api/admin/data/${p}/orders/query`, {
      sort: [{ field: 'title', order: 'desc' }],
      page: { index: 1, size: 5 },
    });

  // The same sorted list twice: the server builds the index serving it, in the background.
  await sorted();
  await sorted();
  await expect
    .poll(async () => (await call<{ indexes: { kind: string }[] }>(IX, {})).indexes.map((i) => i.kind), {
      timeout: 30_000,
    })
    .toEqual(['query']);
  // Two more runs of that list are two uses of the index.
  await sorted();
  await sorted();

  const errors = watchErrors(page);
  await page.setViewportSize(DESKTOP);
  await signInWithToken(page, call.token, p);

  // The workbench: the table's Indexes tab.
  await page.goto(`${server.url}/dev/data/${entity._id}`);
  await page.getByRole('tab', { name: 'Indexes' }).click();
  await expect(page).toHaveURL(/tab=indexes/);
  const panel = page.getByTestId('table-indexes');
  await expect(panel).toHaveCount(1);
  const row = panel.getByTestId('index-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Title desc');
  await expect(row).toContainText('Built for slow queries');
  await expect(row.getByTestId('index-uses')).toHaveText('used 2 times');
  const pin = row.getByTestId('index-pin');
  await expect(pin).toHaveAttribute('aria-checked', 'false');
  await pin.click();
  await expect(pin).toHaveAttribute('aria-checked', 'true');
  await shot(page, 'workbench-table-indexes-desktop');

  // One more use, seen after a refresh of the panel.
  await sorted();
  await panel.getByTestId('index-reload').click();
  await expect(row.getByTestId('index-uses')).toHaveText('used 3 times');

  // /system/data/{entity}: the same panel, the same index, pinned from the workbench; dropped here.
  await page.goto(`${server.url}/system/data/${entity._id}`);
  const sys = page.getByTestId('table-indexes');
  await expect(sys).toHaveCount(1);
  const sysRow = sys.getByTestId('index-row');
  await expect(sysRow).toHaveCount(1);
  await expect(sysRow).toContainText('Title desc');
  await expect(sysRow.getByTestId('index-uses')).toHaveText('used 3 times');
  await expect(sysRow.getByTestId('index-pin')).toHaveAttribute('aria-checked', 'true');
  await page.setViewportSize(PHONE);
  await shot(page, 'system-data-table-indexes-phone');
  await page.setViewportSize(DESKTOP);
  await sysRow.getByTestId('index-remove').click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
  await expect(sys.getByTestId('index-row')).toHaveCount(0);
  expect((await call<{ indexes: unknown[] }>(IX, {})).indexes).toEqual([]);

  // Back in the workbench: gone there too.
  await page.goto(`${server.url}/dev/data/${entity._id}?tab=indexes`);
  await expect(page.getByTestId('table-indexes')).toContainText('No indexes on this table');
  expect(errors, 'console errors').toEqual([]);
  await ctx.dispose();
});
