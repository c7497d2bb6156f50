/**
 * A role's per-table advanced settings (#22), as an owner sets them in /system/auth and a member then
 * meets them: the default filter (the data views' filter control) limits the member's list to the
 * matching rows with a fixed chip, only the allowed program shows as the list's program button, and
 * requests that try to get around either are refused or filtered by the server. Then
 * /system/data-advanced and /system/data/{entity}: view settings saved, an index built on a chosen
 * field and dropped. Screens shot at desktop and phone size.
 */
import { expect, type Page, test } from '@playwright/test';
import { adminApi, DESKTOP, PHONE, pick, shot, signInWithToken, uniqueAccount } from './helpers.ts';

test.use({ actionTimeout: 20_000 });

async function seed(request: Parameters<typeof adminApi>[0]) {
  const call = await adminApi(request);
  const suffix = Date.now().toString(36);
  const p = (await call<{ _id: string }>('/api/common/project/create', { name: `Adv ${suffix}` }))._id;
  const code = `order${suffix}`;
  const A = `/api/admin/project/${p}`;
  const entity = await call<{ _id: string }>(`${A}/entity/create`, { name: 'Orders', code });
  for (const [name, field, type] of [
    ['Title', 'title', 'string'],
    ['Region', 'region', 'string'],
    ['Qty', 'qty', 'number'],
  ] as const)
    await call(`${A}/${code}/field/create`, { name, field, type });
  for (let i = 1; i <= 6; i++)
    await call(`/api/admin/data/${p}/${code}/save`, {
      title: `Order ${i}`,
      region: i % 2 ? 'north' : 'south',
      qty: i,
    });
  const program = async (name: string) => {
    const f = await call<{ _id: string }>(`/api/admin/flow/${p}/create`, {
      name,
      _option: { _entity: code },
      _process: [{ _type: 'display', _handle: 'done', _procedure: { message: `${name} done` } }],
    });
    await call(`/api/admin/flow/${p}/${f._id}/release`, {});
    return f._id;
  };
  const approve = await program('Approve');
  const archive = await program('Archive');
  const entry = await call<{ _id: string }>(`/api/admin/route/${p}/create`, {
    type: 'table',
    name: 'Order list',
    value: code,
  });
  await call(`/api/admin/route/${p}/${entry._id}/bind`, { programs: [approve, archive] });
  const role = await call<{ _id: string }>(`/api/admin/auth/${p}/main/role/create`, { name: 'Clerk' });
  await call(`/api/admin/auth/${p}/main/role/${role._id}/bind`, {
    route: [entry._id],
    entity: [entity._id],
    program: [approve, archive],
  });
  const account = uniqueAccount('clerk');
  await call(`/api/admin/user/${p}/create`, { role: role._id, account, pwd: 'secret123', name: 'Clerk' });
  const member = await adminApi(request, { user: account, pwd: 'secret123' });
  return { call, p, code, entity: entity._id, entry: entry._id, approve, archive, member };
}

const inputOf = (scope: ReturnType<Page['locator']>, id: string) =>
  scope.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first();

const titles = (page: Page) =>
  page
    .locator('[data-testid="data-view"] .ant-table-tbody tr.ant-table-row')
    .evaluateAll((rows) => rows.map((r) => (r.textContent ?? '').match(/Order \d+/)?.[0] ?? ''));

test("an owner sets a role's default filter and allowed programs; its member sees and runs only those", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const s = await seed(request);
  await page.setViewportSize(DESKTOP);
  await signInWithToken(page, s.call.token, s.p);

  // /system/auth → the role's grants → Tables → per-table popups.
  await page.goto('/system/auth');
  await page.getByTestId('role-row-Clerk').getByTestId('role-grants').click();
  const drawer = page.getByTestId('grants-drawer');
  await drawer.getByRole('tab', { name: 'Tables' }).click();
  const tableRow = drawer.getByTestId(`role-table-${s.code}`);
  await tableRow.getByTestId('role-table-filter').click();
  const fm = page.getByTestId('role-table-filter-modal');
  await expect(fm.getByTestId('role-filter-current')).toHaveText('No default filter');
  const filter = fm.getByTestId('table-filter');
  await filter.getByTestId('table-filter-add').click();
  await pick(page, filter.getByTestId('table-filter-field').first(), 'Region');
  await pick(page, filter.getByTestId('table-filter-op').first(), 'equals');
  await inputOf(filter, 'table-filter-value').fill('north');
  await filter.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Default filter saved')).toBeVisible();
  // In words, as the member's chip says it (not the stored `region eq north`).
  await expect(fm.getByTestId('role-filter-current')).toHaveText('Region equals north');
  await shot(page, 'system-auth-role-filter-desktop');
  await fm.getByTestId('role-filter-close').click();

  await tableRow.getByTestId('role-table-programs').click();
  const pm = page.getByTestId('role-table-programs-modal');
  await pm.getByTestId('role-programs-limit').click();
  await pm.getByTestId('role-programs-list').getByText('Approve').click();
  await shot(page, 'system-auth-role-programs-desktop');
  await pm.getByTestId('role-programs-save').click();
  await expect(page.getByText('Allowed programs saved')).toBeVisible();
  await page.setViewportSize(PHONE);
  await tableRow.getByTestId('role-table-programs').click();
  await expect(pm.getByTestId('role-programs-limit')).toHaveAttribute('aria-checked', 'true');
  await shot(page, 'system-auth-role-programs-phone');
  await pm.getByRole('button', { name: 'Cancel' }).click();
  await page.setViewportSize(DESKTOP);

  // The member signs in elsewhere: only the north rows, a fixed chip, only the allowed program.
  const ctx = await browser.newContext({ viewport: DESKTOP });
  const m = await ctx.newPage();
  await signInWithToken(m, s.member.token, s.p);
  await m.goto(`/home/${s.code}`);
  await expect(m.getByTestId('view-total')).toContainText('Rows: 3');
  expect((await titles(m)).sort()).toEqual(['Order 1', 'Order 3', 'Order 5']);
  const chip = m.getByTestId('role-filter');
  await expect(chip).toContainText('Region equals north');
  // Fixed: no close control on the chip.
  await expect(chip.locator('.ant-tag-close-icon')).toHaveCount(0);
  await expect(m.getByTestId('view-program')).toHaveCount(1);
  await expect(m.getByTestId('view-program')).toHaveText(/Approve/);
  await shot(m, 'member-role-filtered-list-desktop');
  await m.setViewportSize(PHONE);
  await shot(m, 'member-role-filtered-list-phone');

  // Getting around it by hand: the server still filters, and refuses the other program.
  const api = async (url: string, body: unknown) => {
    const r = await m.request.post(url, { data: body, headers: { token: s.member.token } });
    return (await r.json()) as { error: number; data?: { data?: { title: string }[]; count?: number } };
  };
  const q = await api(`/api/app/simple/${s.p}/${s.code}/query`, {
    query: { field: 'region', type: 'text', opt: 'eq', value: 'south' },
    count: true,
  });
  expect(q.error).toBe(0);
  expect(q.data?.count).toBe(0);
  const run = await api(`/api/common/program/${s.p}/exec/${s.archive}/${s.entry}`, {});
  expect(run.error).toBe(2091);
  const ok = await api(`/api/common/program/${s.p}/exec/${s.approve}/${s.entry}`, {});
  expect(ok.error).toBe(0);
  await ctx.close();
});

test('an owner edits a table in /system/data-advanced: view settings kept, an index built and dropped', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const s = await seed(request);
  await page.setViewportSize(DESKTOP);
  await signInWithToken(page, s.call.token, s.p);
  await page.goto('/system/data-advanced');
  const row = page.getByTestId(`data-table-${s.code}`);
  await expect(row).toContainText('Default settings');
  await shot(page, 'system-data-advanced-desktop');
  await page.setViewportSize(PHONE);
  await shot(page, 'system-data-advanced-phone');
  await page.setViewportSize(DESKTOP);
  await row.getByTestId('data-table-open').click();
  await expect(page).toHaveURL(new RegExp(`/system/data/${s.entity}$`));
  const settings = page.getByTestId('table-view-settings');
  await pick(page, settings.getByTestId('table-sort-field'), 'Qty');
  await pick(page, settings.getByTestId('table-sort-order'), 'descending');
  await pick(page, settings.getByTestId('table-page-size'), '50');
  await settings.getByTestId('table-features-off').getByText('Export').click();
  await settings.getByTestId('table-label-add').click();
  await settings.getByTestId('table-label-row').locator('input.ant-input').fill('north');
  await settings.getByTestId('table-settings-save').click();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();

  // Kept on the server, as the shared store holds it.
  const stored = await s.call<
    { _value: { sort: unknown; pageSize: number; off: string[]; labels: unknown[] } }[]
  >(`/api/app/share/${s.p}/config/project/query`, { key: `^table\\.${s.entity}$` });
  expect(stored[0]?._value).toMatchObject({
    sort: { field: 'qty', order: 'desc' },
    pageSize: 50,
    off: ['export'],
    labels: [{ field: 'title', opt: 'eq', value: 'north', color: 'red' }],
  });

  // The data view starts in the table's default sort, and its column header says so.
  await page.goto(`/home/${s.code}`);
  const qty = page.getByTestId('data-view').locator('th', { hasText: 'Qty' }).first();
  await expect(qty).toHaveAttribute('aria-sort', 'descending');
  await page.goto(`/system/data/${s.entity}`);

  // An index on Region: built, listed, dropped.
  const ix = page.getByTestId('table-indexes');
  await pick(page, ix.getByTestId('index-fields'), 'Region');
  await page.keyboard.press('Escape');
  await ix.getByTestId('index-create').click();
  await expect(page.getByText('Index built')).toBeVisible();
  await expect(ix.getByTestId('index-row')).toHaveCount(1);
  await expect(ix.getByTestId('index-row')).toContainText('Region');
  await shot(page, 'system-data-table-desktop');
  await page.setViewportSize(PHONE);
  await shot(page, 'system-data-table-phone');
  await page.setViewportSize(DESKTOP);
  await ix.getByTestId('index-remove').click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
  await expect(ix.getByTestId('index-row')).toHaveCount(0);

  // Back on the list, the summary shows what was kept.
  await page.goto('/system/data-advanced');
  await expect(page.getByTestId(`data-table-${s.code}`)).toContainText('Sort: qty descending');
});
