/**
 * Rollups as a builder meets them (issue 19): a dashboard's grouped summary, asked again after each
 * write, recurs slow, and the server keeps a rollup for it (per-region counts and sums kept by
 * triggers); the summaries after that read it, and the table's advanced config (/system/data/{entity},
 * reached from /system/data-advanced) lists it with its use count beside the adaptive indexes. The
 * builder pins it (still pinned after a reload) and drops it; the summary stays right throughout.
 * Runs on a server of its own whose indexer counts every run as slow (AUTO_INDEX_SLOW_MS=0) and builds
 * after two (AUTO_INDEX_RECUR=2), so a handful of rows is enough.
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

interface Rollup {
  _id: string;
  fields: { field: string }[];
  values: { field: string; sum: boolean }[];
  pinned: boolean;
  uses: number;
}

interface Answer {
  total: Record<string, number | null>;
  groups: { key: (string | null)[]; values: Record<string, number | null> }[];
}

test('a recurring grouped summary gets a rollup; the advanced table config lists, pins and drops it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const ctx = await pwRequest.newContext({ baseURL: server.url });
  const call = await adminApi(ctx);
  const { _id: p } = await call<{ _id: string }>('/api/common/project/create', { name: 'Dashboard' });
  const A = `/api/admin/project/${p}`;
  const entity = await call<{ _id: string }>(`${A}/entity/create`, { name: 'Sales', code: 'sales' });
  for (const [name, field, type] of [
    ['Region', 'region', 'string'],
    ['Amount', 'amount', 'number'],
  ] as const)
    await call(`${A}/sales/field/create`, { name, field, type });

  // What the table holds, kept beside it: the summary is checked against it after every step.
  const rows: { region: string; amount: number }[] = [];
  const REGIONS = ['north', 'south', 'east'];
  const add = async (n: number) => {
    const batch = Array.from({ length: n }, (_, i) => {
      const k = rows.length + i;
      return { region: REGIONS[k % 3]!, amount: (k * 7) % 50 };
    });
    await call(`/api/admin/data/${p}/sales/save`, batch.length === 1 ? batch[0] : batch);
    rows.push(...batch);
  };
  const expected = () => {
    const by = new Map<string, { count: number; sum_amount: number }>();
    for (const r of rows) {
      const g = by.get(r.region) ?? { count: 0, sum_amount: 0 };
      g.count++;
      g.sum_amount += r.amount;
      by.set(r.region, g);
    }
    return Object.fromEntries([...by].sort(([a], [b]) => (a < b ? -1 : 1)));
  };
  // The dashboard's call: rows per region and their amounts, as a chart over the table asks it.
  const summary = async () => {
    const a = await call<Answer>(`/api/app/simple/${p}/sales/summary`, {
      summary: { group: ['region'], metrics: [{ fn: 'count' }, { fn: 'sum', field: 'amount' }] },
    });
    return Object.fromEntries(
      a.groups.map((g) => [String(g.key[0]), g.values] as const).sort(([x], [y]) => (x < y ? -1 : 1)),
    );
  };
  const IX = `/api/admin/data/${p}/sales/indexes`;
  const rollups = async () => (await call<{ rollups: Rollup[] }>(IX, {})).rollups;

  await add(12);
  // The dashboard loads, a row is added, it loads again: the same grouped summary ran slow twice
  // (each write drops the cached answer), so the server builds its rollup in the background.
  expect(await summary()).toEqual(expected());
  await add(1);
  expect(await summary()).toEqual(expected());
  await expect.poll(async () => (await rollups()).length, { timeout: 60_000 }).toBe(1);
  const [rx] = await rollups();
  expect(rx).toMatchObject({
    fields: [{ field: 'region' }],
    values: [{ field: 'amount', sum: true }],
    pinned: false,
    uses: 0,
  });
  // Two more writes and loads: two summaries read from the rollup, still right.
  for (let i = 0; i < 2; i++) {
    await add(1);
    expect(await summary()).toEqual(expected());
  }
  expect((await rollups())[0]!.uses).toBe(2);
  // The summary's covering index, built from the same slow runs, follows once writes have been quiet
  // for 2 s (auto-index.ts quietMs): the screen lists what there is when it opens, so wait for it.
  await expect
    .poll(
      async () =>
        (await call<{ indexes: { fields: { field: string }[] }[] }>(IX, {})).indexes.some((i) =>
          i.fields.some((f) => f.field === 'region'),
        ),
      { timeout: 60_000 },
    )
    .toBe(true);

  const errors = watchErrors(page);
  await page.setViewportSize(DESKTOP);
  await signInWithToken(page, call.token, p);

  // The table's advanced config, opened from /system/data-advanced.
  await page.goto(`${server.url}/system/data-advanced`);
  await page.getByTestId('data-table-sales').getByTestId('data-table-open').click();
  await expect(page).toHaveURL(new RegExp(`/system/data/${entity._id}$`));
  const card = page.getByTestId('table-indexes');
  const row = card.getByTestId('rollup-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('by Region');
  await expect(row).toContainText('sum Amount');
  await expect(row.getByTestId('rollup-uses')).toHaveText('used 2 times');
  // The summary's covering index, built from the same slow runs, is listed above it.
  await expect(card.getByTestId('index-row').first()).toContainText('Region');
  const pin = row.getByTestId('rollup-pin');
  await expect(pin).toHaveAttribute('aria-checked', 'false');
  await pin.click();
  await expect(pin).toHaveAttribute('aria-checked', 'true');
  expect((await rollups())[0]).toMatchObject({ _id: rx!._id, pinned: true });

  // Still pinned after a reload; one more use seen.
  await add(1);
  expect(await summary()).toEqual(expected());
  await page.reload();
  await expect(card.getByTestId('rollup-row')).toHaveCount(1);
  await expect(card.getByTestId('rollup-pin')).toHaveAttribute('aria-checked', 'true');
  await expect(card.getByTestId('rollup-uses')).toHaveText('used 3 times');
  await shot(page, 'system-data-table-rollup-desktop');
  await page.setViewportSize(PHONE);
  await shot(page, 'system-data-table-rollup-phone');
  await page.setViewportSize(DESKTOP);

  // Dropped: gone from the card and the server, and the summary, now a scan again, still right.
  await card.getByTestId('rollup-remove').click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
  await expect(card.getByTestId('rollup-row')).toHaveCount(0);
  expect(await rollups()).toEqual([]);
  await add(1);
  expect(await summary()).toEqual(expected());
  await page.reload();
  await expect(card.getByTestId('index-row')).not.toHaveCount(0);
  await expect(card.getByTestId('rollup-row')).toHaveCount(0);
  expect(errors, 'console errors').toEqual([]);
  await ctx.dispose();
});
