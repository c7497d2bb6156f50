/**
 * The gantt playground (issue 26) at desktop size: the project plan's bars and dependency arrows are
 * drawn without console errors; dragging a bar moves its task by whole days and dragging its right
 * edge changes its end; after a reload (and in the data API) the new dates are stored; a second
 * browser on the same page sees the move without reloading; the arrow keys move a focused bar.
 */
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { adminApi, DESKTOP, demoProject, pick, shot, signInWithToken } from './helpers.ts';

test.use({ actionTimeout: 20_000 });

/** A signed-in desktop page at `path` that records console errors and uncaught exceptions. */
async function openAt(browser: Browser, call: Awaited<ReturnType<typeof adminApi>>, path: string) {
  const ctx = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
  await signInWithToken(ctx, call.token, (await demoProject(call)).project);
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(path);
  await expect(page.locator('.lc-playground .lc-page')).toBeVisible();
  return { page, errors };
}

async function open(browser: Browser, call: Awaited<ReturnType<typeof adminApi>>) {
  const opened = await openAt(browser, call, '/playground/playground-gantt');
  await expect(opened.page.locator('.lc-page[data-live="live"]')).toBeVisible();
  await expect(opened.page.locator('.lc-gantt-bar')).toHaveCount(8);
  return opened;
}

const bar = (page: Page, title: string) => page.locator('.lc-gantt-bar', { hasText: title });

/** Day numbers of YYYY-MM-DD texts, to compare dates. */
const day = (s: string | null) => Math.round(Date.parse(`${s}T00:00:00Z`) / 86_400_000);

async function dragBy(page: Page, target: Locator, dx: number, at: 'middle' | 'right') {
  const box = (await target.boundingBox())!;
  const x = at === 'middle' ? box.x + box.width / 2 : box.x + box.width - 3;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y, { steps: 5 });
  await page.mouse.move(x + dx, y, { steps: 5 });
  await page.mouse.up();
}

test('the project plan on a gantt: drag a bar and its edge, reload, the dates are stored and seen live', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const call = await adminApi(request);
  const { project } = await demoProject(call);
  const a = await open(browser, call);
  const b = await open(browser, call);
  // The dependency arrows: the go-live task waits for two, eight tasks have seven links and more.
  expect(await a.page.locator('path.lc-gantt-link').count()).toBeGreaterThanOrEqual(8);
  await shot(a.page, 'playground-gantt');

  const api = bar(a.page, 'Design');
  const start0 = day(await api.getAttribute('data-start'));
  const end0 = day(await api.getAttribute('data-end'));
  // Day zoom: 36 px a day; three days later.
  await dragBy(a.page, api, 3 * 36, 'middle');
  await expect(api).toHaveAttribute(
    'data-start',
    new Date((start0 + 3) * 86_400_000).toISOString().slice(0, 10),
  );
  await expect(api).toHaveAttribute('data-end', new Date((end0 + 3) * 86_400_000).toISOString().slice(0, 10));
  // The other browser sees it without a reload.
  await expect(bar(b.page, 'Design')).toHaveAttribute(
    'data-start',
    new Date((start0 + 3) * 86_400_000).toISOString().slice(0, 10),
  );

  // The right edge: two more days at the end, the start stays.
  await dragBy(a.page, api, 2 * 36, 'right');
  const endText = new Date((end0 + 5) * 86_400_000).toISOString().slice(0, 10);
  await expect(api).toHaveAttribute('data-end', endText);

  // The keyboard: arrow left moves the focused bar a day earlier.
  await api.focus();
  await a.page.keyboard.press('ArrowLeft');
  const start2 = new Date((start0 + 2) * 86_400_000).toISOString().slice(0, 10);
  await expect(api).toHaveAttribute('data-start', start2);
  await expect(bar(b.page, 'Design')).toHaveAttribute('data-start', start2);

  // Stored: after a reload, and as the data API reads it.
  await a.page.waitForTimeout(500);
  await a.page.reload();
  await expect(bar(a.page, 'Design')).toHaveAttribute('data-start', start2);
  await expect(bar(a.page, 'Design')).toHaveAttribute(
    'data-end',
    new Date((end0 + 4) * 86_400_000).toISOString().slice(0, 10),
  );
  const rows = await call<{ data: { title: string; start: number }[] }>(
    `/api/app/simple/${project}/ptask/query`,
    {
      query: { field: 'title', type: 'text', opt: 'eq', value: '方案设计 Design' },
    },
  );
  const stored = rows.data[0];
  expect(stored).toBeDefined();
  // Stored as the day's midnight in the project's zone (UTC+8).
  expect(new Date((stored?.start ?? 0) + 8 * 3_600_000).toISOString().slice(0, 10)).toBe(start2);

  // The week and month scales draw the same tasks.
  await a.page.getByText('Week', { exact: true }).click();
  await expect(a.page.locator('.lc-gantt-bar')).toHaveCount(8);
  await a.page.getByText('Month', { exact: true }).click();
  await expect(a.page.locator('.lc-gantt-bar')).toHaveCount(8);
  await shot(a.page, 'playground-gantt-month');

  expect(a.errors, 'console errors').toEqual([]);
  expect(b.errors, 'console errors').toEqual([]);
});

test('the region playground: provinces open to their cities and districts in the table tree', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const call = await adminApi(request);
  const { page, errors } = await openAt(browser, call, '/playground/region');
  const row = (name: string) => page.locator('tr.ant-table-row', { hasText: name });
  // Three provinces at the root; their cities hidden until opened.
  await expect(row('广东省 Guangdong')).toBeVisible();
  await expect(row('浙江省 Zhejiang')).toBeVisible();
  await expect(row('广州市 Guangzhou')).toHaveCount(0);
  await row('广东省 Guangdong').locator('.ant-table-row-expand-icon').click();
  await expect(row('广州市 Guangzhou')).toBeVisible();
  await expect(row('深圳市 Shenzhen')).toBeVisible();
  await row('广州市 Guangzhou').locator('.ant-table-row-expand-icon').click();
  await expect(row('天河区 Tianhe')).toBeVisible();
  await expect(row('南山区 Nanshan')).toHaveCount(0);
  await shot(page, 'playground-region');

  // Searching a name narrows the table to the rows found (a district without its parent, at the root).
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill('南山');
  await search.press('Enter');
  await expect(row('南山区 Nanshan')).toBeVisible();
  await expect(page.locator('tr.ant-table-row')).toHaveCount(1);
  await shot(page, 'playground-region-search');
  await search.fill('');
  await search.press('Enter');
  await expect(row('浙江省 Zhejiang')).toBeVisible();
  // Filtering by level: the cities only.
  await page.getByRole('button', { name: 'Filter' }).click();
  const filter = page.getByTestId('table-filter');
  await filter.getByTestId('table-filter-add').click();
  await pick(page, filter.getByTestId('table-filter-field'), '级别 Level');
  await pick(page, filter.getByTestId('table-filter-op'), 'equals');
  await filter
    .locator('input[data-testid="table-filter-value"], [data-testid="table-filter-value"] input')
    .first()
    .fill('市 City');
  await filter.getByTestId('table-filter-apply').click();
  await expect(page.locator('tr.ant-table-row')).toHaveCount(6);
  await expect(row('深圳市 Shenzhen')).toBeVisible();
  await expect(row('省 Province')).toHaveCount(0);
  await expect(row('区 District')).toHaveCount(0);
  await shot(page, 'playground-region-cities');
  expect(errors, 'console errors').toEqual([]);
});
