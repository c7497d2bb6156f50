/**
 * The end user's data view, tried as a member would (issue #23), for what data-views.spec.ts does not
 * reach: filtering yes/no and option fields by picking their values, a saved filter's days shown when
 * it is applied, refusals said with their reason (a removal, a page table over a table the role may
 * not read), the detail drawing pictures and yes/no as the table does, and a page table that may pin
 * columns but not hide them offering no check boxes that do nothing.
 */
import { expect, type Page, test } from '@playwright/test';
import { adminApi, DESKTOP, pick, shot, signInWithToken, uniqueAccount } from './helpers.ts';

test.use({ actionTimeout: 20_000 });

/** A day's start in the project's zone (Asia/Shanghai), as date fields store it. */
const day = (d: string) => Date.parse(`${d}T00:00:00+08:00`);

async function seed(request: Parameters<typeof adminApi>[0]) {
  const call = await adminApi(request);
  const suffix = Date.now().toString(36);
  const p = (await call<{ _id: string }>('/api/common/project/create', { name: `Views 2 ${suffix}` }))._id;
  const A = `/api/admin/project/${p}`;
  const code = `thing${suffix}`;
  const entity = await call<{ _id: string }>(`${A}/entity/create`, { name: 'Things', code });
  for (const [name, field, type, option] of [
    ['Title', 'title', 'string'],
    ['Region', 'region', 'string'],
    ['Due', 'due', 'date'],
    ['Done', 'done', 'boolean'],
    ['Status', 'status', 'option', { info: { list: ['open', 'hold', 'closed'] } }],
    ['Tags', 'tags', 'options', { info: { list: ['red', 'green', 'blue'] } }],
    ['Photo', 'photo', 'image'],
  ] as const)
    await call(`${A}/${code}/field/create`, { name, field, type, ...(option ? { option } : {}) });
  const ids: Record<string, string> = {};
  for (const r of [
    {
      title: 'Thing 1',
      due: day('2026-01-10'),
      done: true,
      status: 'open',
      tags: ['red'],
      photo: '/upload/none/a.png',
    },
    { title: 'Thing 2', due: day('2026-02-10'), done: false, status: 'hold', tags: ['green'] },
    { title: 'Thing 3', due: day('2026-03-10'), done: true, status: 'closed', tags: ['red', 'blue'] },
    { title: 'Thing 4', done: false, status: 'open', tags: [] },
  ])
    ids[r.title] = (
      await call<{ _id: string }>(`/api/admin/data/${p}/${code}/save`, { ...r, region: 'north' })
    )._id;
  // A table nobody's role is granted, shown on the page beside the granted one.
  const secret = await call<{ _id: string }>(`${A}/entity/create`, { name: 'Secret', code: `sec${suffix}` });
  await call(`${A}/sec${suffix}/field/create`, { name: 'Name', field: 'name', type: 'string' });
  const entry = await call<{ _id: string }>(`/api/admin/route/${p}/create`, {
    type: 'table',
    name: 'Things',
    value: code,
  });
  const at = (y: number) => ({ pc: { x: 0, y, w: 120, h: 40 }, mobile: { x: 0, y, w: 38, h: 40 } });
  const document = {
    id: 'draft',
    title: 'Things',
    version: 1,
    layout: {
      pc: { cols: 120, rowHeight: 10, width: 1200 },
      mobile: { cols: 38, rowHeight: 10, width: 375 },
    },
    widgets: [
      // Columns may be pinned, not hidden (`view` off).
      { id: 'pins', kind: 'table', version: 1, props: { entity: entity._id, pin: true }, layout: at(0) },
      {
        id: 'secret',
        kind: 'table',
        version: 1,
        props: { entity: secret._id, search: true },
        layout: at(42),
      },
    ],
  };
  const page = await call<{ _id: string }>(`/api/admin/page/${p}/create`, { name: 'Things', document });
  await call(`/api/admin/page/${p}/${page._id}/publish`, {});
  const role = await call<{ _id: string }>(`/api/admin/auth/${p}/main/role/create`, {
    name: 'Clerk',
    type: 'common',
  });
  await call(`/api/admin/auth/${p}/main/role/${role._id}/bind`, {
    route: [entry._id],
    page: [page._id],
    entity: [entity._id],
  });
  // The role works on the north's records only.
  await call(`/api/admin/view/${p}/${code}/role-filter`, {
    role: role._id,
    filter: { conditions: [{ field: 'region', opt: 'eq', value: 'north' }], match: 'and' },
  });
  const account = uniqueAccount('ann');
  await call(`/api/admin/user/${p}/create`, { role: role._id, account, pwd: 'secret123', name: 'Ann' });
  const ann = await adminApi(request, { user: account, pwd: 'secret123' });
  return { call, ann, project: p, code, entity: entity._id, page: page._id, ids };
}

const rowTitles = (page: Page) =>
  page
    .locator('[data-testid="data-view"] .ant-table-tbody tr.ant-table-row')
    .evaluateAll((rows) => rows.map((r) => (r.textContent ?? '').match(/Thing \d/)?.[0] ?? ''));

/** Opens the filter, adds one condition on `field` with operator `op`, and answers its row. */
/** Ann (a member) on the things list, its four rows counted. */
async function openAsAnn(page: Page, s: Awaited<ReturnType<typeof seed>>): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await signInWithToken(page, s.ann.token, s.project);
  await page.goto(`/home/${s.code}`);
  await expect(page.getByTestId('view-total')).toContainText('Rows: 4');
}

async function condition(page: Page, field: string, op: string) {
  await page.getByTestId('view-filter').click();
  const filter = page.getByTestId('table-filter');
  await filter.getByTestId('table-filter-clear').click();
  await page.getByTestId('view-filter').click();
  await filter.getByTestId('table-filter-add').click();
  const row = filter.getByTestId('table-filter-row').last();
  // Picked again if the pick was lost (the popover may still be settling under load).
  const fieldSelect = row.getByTestId('table-filter-field');
  await expect(async () => {
    await pick(page, fieldSelect, field);
    await expect(fieldSelect).toContainText(field, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  // The operators follow the chosen field's type: pick once they are that type's.
  const opSelect = row.getByTestId('table-filter-op');
  await expect(async () => {
    await pick(page, opSelect, op);
    await expect(opSelect).toContainText(op, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  return row;
}

test('an end user filters yes/no and option fields by picking their values; a saved filter shows its days', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const s = await seed(request);
  await openAsAnn(page, s);
  const total = page.getByTestId('view-total');
  const filter = page.getByTestId('table-filter');

  // Done equals Yes: picked, not typed (typed "yes" was refused by the query and nothing said so).
  let row = await condition(page, 'Done', 'equals');
  await pick(page, row.getByTestId('table-filter-value'), 'Yes');
  await filter.getByTestId('table-filter-apply').click();
  await expect(total).toContainText('Rows: 2');
  expect(await rowTitles(page)).toEqual(['Thing 1', 'Thing 3']);
  await expect(page.getByTestId('view-error')).toHaveCount(0);

  // Status is any of open, hold: several values from the field's own list.
  row = await condition(page, 'Status', 'is any of');
  const values = row.getByTestId('table-filter-value');
  await values.click();
  const offered = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await expect(offered).toHaveText(['open', 'hold', 'closed']);
  await offered.filter({ hasText: 'open' }).click();
  await offered.filter({ hasText: 'hold' }).click();
  // Close the list (a click beside it; Escape would close the whole filter).
  await filter.getByText('Match').click();
  await shot(page, 'data-views-2-option-filter');
  await filter.getByTestId('table-filter-apply').click();
  await expect(total).toContainText('Rows: 3');
  expect(await rowTitles(page)).toEqual(['Thing 1', 'Thing 2', 'Thing 4']);

  // Tags has any of blue.
  row = await condition(page, 'Tags', 'has any of');
  await pick(page, row.getByTestId('table-filter-value'), 'blue');
  await filter.getByText('Match').click();
  await filter.getByTestId('table-filter-apply').click();
  await expect(total).toContainText('Rows: 1');
  expect(await rowTitles(page)).toEqual(['Thing 3']);

  // A saved filter of days between two dates: applied, and its days shown when the filter opens.
  await s.ann(`/api/app/view/${s.project}/${s.entity}/filters/save`, {
    name: 'Early ones',
    type: 'private',
    filter: {
      match: 'and',
      conditions: [{ field: 'due', opt: 'between', value: ['2026-01-01', '2026-02-28'] }],
    },
  });
  await page.reload();
  await expect(total).toContainText('Rows: 4');
  await page.getByTestId('saved-filters').click();
  await page.getByTestId('saved-filter-item').filter({ hasText: 'Early ones' }).click();
  await expect(total).toContainText('Rows: 2');
  await page.getByTestId('view-filter').click();
  const days = filter.getByTestId('table-filter-row').first().locator('.ant-picker input');
  await expect(days.nth(0)).toHaveValue('2026-01-01');
  await expect(days.nth(1)).toHaveValue('2026-02-28');
  await shot(page, 'data-views-2-saved-dates');
  await filter.getByTestId('table-filter-clear').click();
  await expect(total).toContainText('Rows: 4');
  await page.keyboard.press('Escape');

  // Grouped by a date and by yes / no: the headers say the day and Yes / No, not the stored value.
  const heads = page.getByTestId('group-head');
  await pick(page, page.getByTestId('view-group'), 'Due');
  await page.keyboard.press('Escape');
  await expect(heads).toHaveCount(4);
  const dayHeads = await heads.allTextContents();
  expect(dayHeads.some((h) => h.includes('2026-01-10'))).toBe(true);
  expect(dayHeads.join(' ')).not.toMatch(/\d{10}/);
  await page.getByTestId('view-group').locator('.ant-select-clear').click({ force: true });
  await expect(heads).toHaveCount(0);
  await pick(page, page.getByTestId('view-group'), 'Done');
  await page.keyboard.press('Escape');
  await expect(heads).toHaveCount(2);
  expect((await heads.allTextContents()).map((h) => h.replace(/\s+/g, ' ').trim())).toEqual([
    'Done: No 2',
    'Done: Yes 2',
  ]);
  await shot(page, 'data-views-2-group-heads');
  await page.getByTestId('view-group').locator('.ant-select-clear').click({ force: true });
  await expect(heads).toHaveCount(0);

  // A row label on a day, written as the cell shows it.
  await page.getByTestId('view-labels').click();
  const rules = page.getByTestId('label-rules');
  await rules.getByRole('button', { name: 'Add label' }).click();
  await pick(page, rules.locator('.ant-select').first(), 'Due');
  await rules.locator('input.ant-input').fill('2026-01-10');
  await page.keyboard.press('Escape');
  await expect(page.locator('[data-testid="data-view"] tr.dv-label-red')).toHaveCount(1);
  await expect(page.locator('[data-testid="data-view"] tr.dv-label-red')).toContainText('Thing 1');
});

test('refusals are said with their reason; the detail draws pictures and yes/no; a table that may pin columns but not hide them offers no check boxes', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const s = await seed(request);
  await openAsAnn(page, s);
  const view = page.getByTestId('data-view');

  // Wider than the window (seven fields, index, check boxes, actions): the table scrolls sideways
  // inside the view, the page does not (it grew past the window, the header stopping short).
  await expect
    .poll(() => view.locator('.ant-table-content').evaluate((el) => el.scrollWidth - el.clientWidth))
    .toBeGreaterThan(0);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBe(0);
  // Each column's edge names its column (one translation filled in per column).
  for (const name of ['Title', 'Region', 'Photo'])
    await expect(
      view.getByRole('separator', { name: `Width of column ${name} (drag, or arrow keys)`, exact: true }),
    ).toHaveCount(1);

  // The detail of a record: its picture and its yes / no drawn as in the table, not as stored text.
  await view.locator('tr', { hasText: 'Thing 1' }).getByText('Thing 1', { exact: true }).click();
  const detail = page.getByTestId('record-detail');
  await expect(detail.locator('img')).toHaveAttribute('src', '/upload/none/a.png');
  await expect(detail).not.toContainText('/upload/none/a.png');
  await expect(detail).toContainText('Yes');
  await expect(detail).not.toContainText('true');
  await shot(page, 'data-views-2-detail');
  await page.keyboard.press('Escape');
  await expect(page.locator('.ant-modal:visible')).toHaveCount(0);

  // The builder moves Thing 2 out of the role's region; Ann, not reloaded, removes it: refused, and
  // said so with the reason (it was "Removed 0" as a success).
  await s.call(`/api/admin/data/${s.project}/${s.code}/${s.ids['Thing 2']}/update`, { region: 'south' });
  await view.locator('tr', { hasText: 'Thing 2' }).getByTestId('row-remove').click();
  await page.getByTestId('remove-ok').click();
  const notice = page.locator('.ant-message-notice');
  await expect(notice).toContainText('2095');
  await expect(notice).not.toContainText('Removed');
  // The view then shows the table as it is now: Thing 2 has left Ann's rows.
  await expect(view.getByTestId('view-total')).toContainText('Rows: 3');
  await expect(view.getByText('Thing 2', { exact: true })).toHaveCount(0);
  await shot(page, 'data-views-2-remove-refused');

  // On a page: a table over a table the role may not read says so with the code.
  await page.goto(`/page/${s.page}`);
  const pins = page.locator('[data-wid="pins"] [data-testid="data-view"]');
  await expect(pins.getByText('Thing 1', { exact: true })).toBeVisible();
  const secret = page.locator('[data-wid="secret"]');
  await expect(secret.getByTestId('view-error')).toContainText(/\d{3,4}: /);
  // No count is claimed under the refusal.
  expect((await secret.textContent()) ?? '').not.toMatch(/at least/i);
  // Pinning offered, hiding not: no check box that would do nothing.
  await pins.getByTestId('view-columns').click();
  const settings = page.getByTestId('column-settings');
  await expect(settings.getByTestId('fix-title')).toBeVisible();
  await expect(settings.locator('input[type="checkbox"]')).toHaveCount(0);
  await shot(page, 'data-views-2-page');
});

test('managing saved filters: each row keeps its own name after a removal and a copy', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const s = await seed(request);
  for (const name of ['Alpha', 'Beta'])
    await s.ann(`/api/app/view/${s.project}/${s.entity}/filters/save`, {
      name,
      type: 'private',
      filter: { match: 'and', conditions: [{ field: 'title', opt: 'contain', value: name }] },
    });
  await openAsAnn(page, s);
  await page.getByTestId('manage-filters').click();
  const dialog = page.locator('.ant-modal:visible');
  const rows = dialog.getByTestId('manage-filter-row');
  const names = () =>
    rows.getByLabel('Rename').evaluateAll((a) => a.map((x) => (x as HTMLInputElement).value));
  await expect(rows).toHaveCount(2);
  const [first, second] = await names();
  expect([first, second].sort()).toEqual(['Alpha', 'Beta']);

  // The first one removed: the row left shows the other's name (it showed the removed one's).
  await rows.first().getByRole('button', { name: 'Remove' }).click();
  // Asked first: a removed filter is gone for everyone who saw it.
  await expect(rows).toHaveCount(2);
  await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'OK' }).click();
  await expect(rows).toHaveCount(1);
  expect(await names()).toEqual([second]);

  // A copy: every row shows its own filter's name.
  await rows.first().getByRole('button', { name: 'Copy' }).click();
  await expect(rows).toHaveCount(2);
  expect((await names()).sort()).toEqual([second, `${second} (copy)`].sort());
  await shot(page, 'data-views-2-manage-filters');
});
