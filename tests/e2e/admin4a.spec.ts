/**
 * A table's advanced settings (/system/data/{entity}, #22) acted on where end users work: an owner sets
 * the row height, the page size, a row label and switches a feature off; a member of a role then meets
 * them in the list menu entry and in a published page's table widget (whose own toggle turns that
 * feature on — the table's setting wins). The role's default filter shows there as a fixed chip, and a
 * record added outside it is refused (the form stays open with the reason), nothing written.
 */
import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';
import { adminApi, DESKTOP, PHONE, pick, shot, signInWithToken, uniqueAccount } from './helpers.ts';

test.use({ actionTimeout: 20_000 });

const ROWS = 30;
const at = (y: number, h = 80) => ({ pc: { x: 0, y, w: 120, h }, mobile: { x: 0, y, w: 38, h } });

async function seed(request: Parameters<typeof adminApi>[0]) {
  const call = await adminApi(request);
  const suffix = Date.now().toString(36);
  const p = (await call<{ _id: string }>('/api/common/project/create', { name: `A4A ${suffix}` }))._id;
  const code = `stock${suffix}`;
  const A = `/api/admin/project/${p}`;
  const entity = await call<{ _id: string }>(`${A}/entity/create`, { name: 'Stock', code });
  for (const [name, field, type] of [
    ['Title', 'title', 'string'],
    ['Region', 'region', 'string'],
    ['Qty', 'qty', 'number'],
  ] as const)
    await call(`${A}/${code}/field/create`, { name, field, type });
  for (let i = 1; i <= ROWS; i++)
    await call(`/api/admin/data/${p}/${code}/save`, {
      title: `Item ${i}`,
      region: i % 2 ? 'north' : 'south',
      qty: i,
    });
  const entry = await call<{ _id: string }>(`/api/admin/route/${p}/create`, {
    type: 'table',
    name: 'Stock list',
    value: code,
  });
  // A page whose table widget turns on search, export and adding records.
  const document = {
    id: 'draft',
    title: 'Stock page',
    version: 1,
    layout: {
      pc: { cols: 120, rowHeight: 10, width: 1200 },
      mobile: { cols: 38, rowHeight: 10, width: 375 },
    },
    widgets: [
      {
        id: 'items',
        kind: 'table',
        version: 1,
        props: { entity: entity._id, search: true, export: true, option: true },
        layout: at(0),
      },
    ],
  };
  const page = await call<{ _id: string }>(`/api/admin/page/${p}/create`, { name: 'Stock page', document });
  await call(`/api/admin/page/${p}/${page._id}/publish`, {});
  const role = await call<{ _id: string }>(`/api/admin/auth/${p}/main/role/create`, { name: 'Clerk' });
  await call(`/api/admin/auth/${p}/main/role/${role._id}/bind`, {
    route: [entry._id],
    page: [page._id],
    entity: [entity._id],
  });
  // The role sees the north rows only.
  await call(`/api/admin/view/${p}/${code}/role-filter`, {
    role: role._id,
    filter: { conditions: [{ field: 'region', opt: 'eq', value: 'north' }], match: 'and' },
  });
  const account = uniqueAccount('a4a');
  await call(`/api/admin/user/${p}/create`, { role: role._id, account, pwd: 'secret123', name: 'Clerk' });
  const member = await adminApi(request, { user: account, pwd: 'secret123' });
  return { call, p, code, entity: entity._id, page: page._id, member };
}

function recordErrors(page: Page) {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** What the table's settings do to a data view, wherever it is shown. */
async function expectTableSettings(view: Locator) {
  await expect(view.getByTestId('view-total')).toContainText('15');
  // Page size 10 from the table's settings.
  await expect(view.locator('.ant-table-tbody tr.ant-table-row')).toHaveCount(10);
  // Row height "high".
  await expect(view).toHaveAttribute('data-row-height', 'high');
  const first = view.locator('.ant-table-tbody tr.ant-table-row').first();
  expect((await first.boundingBox())!.height).toBeGreaterThanOrEqual(78);
  // The label: "Item 3" in red, the others plain.
  await expect(view.locator('tr.dv-label-red')).toHaveCount(1);
  await expect(view.locator('tr.dv-label-red')).toContainText('Item 3');
  // Export (and import) switched off by the table.
  await expect(view.getByTestId('view-toolbar')).toBeVisible();
  await expect(view.getByTestId('xlsx-export')).toHaveCount(0);
  await expect(view.getByTestId('xlsx-import')).toHaveCount(0);
  // The role's filter: shown, fixed.
  const chip = view.getByTestId('role-filter');
  await expect(chip).toContainText('Region equals north');
  await expect(chip.locator('.ant-tag-close-icon')).toHaveCount(0);
}

test("an owner's table settings and a role filter shape the member's list and page table", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const s = await seed(request);
  const ownerErrors = recordErrors(page);
  await page.setViewportSize(DESKTOP);
  await signInWithToken(page, s.call.token, s.p);

  // Before any settings, the member's list has pages of 20 and an export button.
  const ctx: BrowserContext = await browser.newContext({ viewport: DESKTOP });
  const m = await ctx.newPage();
  const memberErrors = recordErrors(m);
  await signInWithToken(m, s.member.token, s.p);
  await m.goto(`/home/${s.code}`);
  const list = m.getByTestId('data-view');
  await expect(list.getByTestId('view-total')).toContainText('15');
  await expect(list.locator('.ant-table-tbody tr.ant-table-row')).toHaveCount(15);
  await expect(list.getByTestId('xlsx-export')).toBeVisible();
  await expect(list).toHaveAttribute('data-row-height', 'default');

  // The owner: /system/data/{entity} — row height, page size, a feature off, a label.
  await page.goto(`/system/data/${s.entity}`);
  const settings = page.getByTestId('table-view-settings');
  await pick(page, settings.getByTestId('table-row-height'), 'High');
  await pick(page, settings.getByTestId('table-page-size'), '10');
  await settings.getByTestId('table-features-off').getByText('Export').click();
  await settings.getByTestId('table-label-add').click();
  await settings.getByTestId('table-label-row').locator('input.ant-input').fill('Item 3');
  await settings.getByTestId('table-settings-save').click();
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  await shot(page, 'admin4a-table-settings-desktop');

  // The member's list menu entry.
  await m.reload();
  await expectTableSettings(m.getByTestId('data-view'));
  await shot(m, 'admin4a-member-list-desktop');

  // The published page's table widget (its own export toggle is on: the table's "off" wins).
  await m.goto(`/page/${s.page}`);
  const widget = m.locator('[data-wid="items"] [data-testid="data-view"]');
  await expectTableSettings(widget);
  await expect(widget.getByTestId('view-search')).toBeVisible();
  await shot(m, 'admin4a-member-page-desktop');

  // Adding a record outside the role filter: refused with the reason, the form stays open.
  await widget.getByTestId('view-add').click();
  const form = m.getByTestId('row-form');
  await form.getByLabel('Title').fill('Sneaky');
  await form.getByLabel('Region').fill('south');
  await m.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(form.getByTestId('row-form-error')).toContainText(
    "2210: the record would fall outside your role's filter",
  );
  await expect(form).toBeVisible();
  await shot(m, 'admin4a-member-refused-desktop');
  const all = await s.call<{ count: number; data: { title: string }[] }>(
    `/api/admin/data/${s.p}/${s.code}/query`,
    { count: true, query: { field: 'title', type: 'text', opt: 'eq', value: 'Sneaky' } },
  );
  expect(all.count).toBe(0);
  // Inside it, the same record is saved and shows.
  await form.getByLabel('Region').fill('north');
  await m.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(widget.getByTestId('view-total')).toContainText('16');
  await m.setViewportSize(PHONE);
  await shot(m, 'admin4a-member-page-phone');

  // Console: nothing but the refused save's 403 in the member's browser.
  expect(memberErrors.filter((e) => !/status of 403/.test(e))).toEqual([]);
  expect(memberErrors.filter((e) => /status of 403/.test(e)).length).toBeLessThanOrEqual(1);
  expect(ownerErrors).toEqual([]);
  await ctx.close();
});
