/**
 * Running programs as an end user on the published app (issue #20 item 5): on a list menu entry the
 * entry's bound program is a button acting on the selected rows — select one, run it, fill its input
 * form, see its message and the row change; select two, one run per row; a program widget on a page
 * runs its program; a member whose role is not granted the program sees no button (on the list, and
 * in the program widget, which shows only the granted program's button) and is refused with a code
 * when calling it (prepare, batched prepare, display, exec).
 */
import { expect, type Page, test } from '@playwright/test';
import { adminApi, shot, signInWithToken, uniqueAccount } from './helpers.ts';

test.use({ actionTimeout: 20_000 });

const at = (y: number, h = 6) => ({ pc: { x: 0, y, w: 100, h }, mobile: { x: 0, y, w: 38, h } });

async function seed(request: Parameters<typeof adminApi>[0]) {
  const call = await adminApi(request);
  const suffix = Date.now().toString(36);
  const p = (await call<{ _id: string }>('/api/common/project/create', { name: `Run ${suffix}` }))._id;
  const code = `inv${suffix}`;
  const entity = await call<{ _id: string }>(`/api/admin/project/${p}/entity/create`, {
    name: 'Invoices',
    code,
  });
  for (const name of ['no', 'status', 'note'])
    await call(`/api/admin/project/${p}/${code}/field/create`, { name, type: 'string', field: name });
  for (const no of ['INV-1', 'INV-2', 'INV-3'])
    await call(`/api/admin/data/${p}/${code}/save`, { no, status: 'open' });
  const pay = await call<{ _id: string }>(`/api/admin/flow/${p}/create`, {
    name: 'Mark paid',
    _option: { _entity: code },
    _process: [
      {
        _type: 'input',
        _handle: 'form',
        _procedure: { fields: [{ key: 'note', name: 'Note', type: 'string', required: true }] },
      },
      {
        _type: 'update',
        _handle: 'pay',
        _entity: code,
        _procedure: { id: 'record._id', values: { status: "'paid'", note: 'params.note' } },
      },
      { _type: 'display', _handle: 'done', _procedure: { message: '{{record.no}} paid' } },
    ],
  });
  await call(`/api/admin/flow/${p}/${pay._id}/release`, {});
  const count = await call<{ _id: string }>(`/api/admin/flow/${p}/create`, {
    name: 'Count paid',
    _process: [
      {
        _type: 'query',
        _handle: 'paid',
        _entity: code,
        _procedure: { where: { $and: [{ field: 'status', opt: 'eq', value: 'paid' }] } },
      },
      { _type: 'display', _handle: 'n', _procedure: { message: '{{len(state.paid)}} invoices paid' } },
    ],
  });
  await call(`/api/admin/flow/${p}/${count._id}/release`, {});
  const entry = await call<{ _id: string }>(`/api/admin/route/${p}/create`, {
    type: 'table',
    name: 'Invoices',
    value: code,
  });
  await call(`/api/admin/route/${p}/${entry._id}/bind`, { programs: [pay._id] });
  const doc = {
    id: 'x',
    title: 'Desk',
    version: 1,
    layout: {
      pc: { cols: 120, rowHeight: 10, width: 1200 },
      mobile: { cols: 38, rowHeight: 10, width: 375 },
    },
    widgets: [
      {
        id: 'buttons',
        kind: 'program',
        version: 1,
        props: {
          title: 'Actions',
          program: [
            { name: 'Count paid', flow: count._id },
            { name: 'Pay it', flow: pay._id },
          ],
        },
        layout: at(0, 10),
      },
    ],
  };
  const pg = await call<{ _id: string }>(`/api/admin/page/${p}/create`, { name: 'Desk', document: doc });
  await call(`/api/admin/page/${p}/${pg._id}/publish`, {});
  const member = async (name: string, programs: string[]) => {
    const role = await call<{ _id: string }>(`/api/admin/auth/${p}/main/role/create`, {
      name,
      type: 'common',
    });
    await call(`/api/admin/auth/${p}/main/role/${role._id}/bind`, {
      route: [entry._id],
      page: [pg._id],
      entity: [entity._id],
      program: programs,
    });
    const account = uniqueAccount(name.toLowerCase());
    await call(`/api/admin/user/${p}/create`, { role: role._id, account, pwd: 'secret123', name });
    return (await adminApi(request, { user: account, pwd: 'secret123' })).token;
  };
  return {
    p,
    code,
    pay: pay._id,
    page: pg._id,
    clerk: await member('Clerk', [pay._id, count._id]),
    // Granted only the counting program: the page shows its button, not the paying one.
    viewer: await member('Viewer', [count._id]),
  };
}

const row = (page: Page, no: string) =>
  page.locator('[data-testid="data-view"] .ant-table-tbody tr.ant-table-row', { hasText: no });

test('an end user selects rows on a list entry, runs the bound program with its input, and sees the rows change', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const s = await seed(request);
  await signInWithToken(page, s.clerk, s.p);
  await page.goto(`/home/${s.code}`);
  await expect(row(page, 'INV-1')).toContainText('open');
  const button = page.getByTestId('view-program');
  await expect(button).toHaveText(/Mark paid/);
  // Acting on selected rows: nothing selected, nothing to run.
  await expect(button).toBeDisabled();

  await row(page, 'INV-1').locator('.ant-checkbox-input').check();
  await button.click();
  const form = page.getByTestId('program-input');
  await expect(form).toBeVisible();
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByText('Note is required')).toBeVisible();
  await form.getByLabel('Note').fill('cash');
  await shot(page, 'program-list-input');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByText('INV-1 paid')).toBeVisible();
  // The list reloads by itself: the row shows the program's change.
  await expect(row(page, 'INV-1')).toContainText('paid');
  await expect(row(page, 'INV-1')).toContainText('cash');
  await expect(row(page, 'INV-2')).toContainText('open');

  // Two rows selected: one run per row, with one input.
  await row(page, 'INV-1').locator('.ant-checkbox-input').uncheck();
  await row(page, 'INV-2').locator('.ant-checkbox-input').check();
  await row(page, 'INV-3').locator('.ant-checkbox-input').check();
  await expect(button).toHaveText(/Mark paid \(2\)/);
  await button.click();
  await page.getByTestId('program-input').getByLabel('Note').fill('bank');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByText('Mark paid ran on 2 records')).toBeVisible();
  await expect(row(page, 'INV-2')).toContainText('bank');
  await expect(row(page, 'INV-3')).toContainText('bank');
  await shot(page, 'program-list-bulk');

  // A program widget on a page runs its program; both its programs are granted, both buttons show.
  await page.goto(`/page/${s.page}`);
  await expect(page.getByTestId('program-buttons')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByRole('button', { name: 'Pay it' })).toBeVisible();
  await page.getByRole('button', { name: 'Count paid' }).click();
  await expect(page.getByText('3 invoices paid')).toBeVisible();

  // A member not granted the program sees no button, and calling it is refused with a code.
  const other = await browser.newContext();
  const viewerPage = await other.newPage();
  await signInWithToken(viewerPage, s.viewer, s.p);
  await viewerPage.goto(`/home/${s.code}`);
  await expect(row(viewerPage, 'INV-1')).toBeVisible();
  await expect(viewerPage.getByTestId('view-program')).toHaveCount(0);
  const refused = await request.post(`/api/common/program/${s.p}/exec/${s.pay}/x`, {
    headers: { token: s.viewer },
    data: { data: { note: 'x' } },
  });
  expect(((await refused.json()) as { error: number }).error).toBe(1102);
  // On the page, the program widget shows only the button of the program the member is granted.
  await viewerPage.goto(`/page/${s.page}`);
  const buttons = viewerPage.getByTestId('program-buttons');
  await expect(buttons).toHaveAttribute('data-ready', 'true');
  await expect(buttons.getByRole('button', { name: 'Count paid' })).toBeVisible();
  await expect(buttons.getByRole('button')).toHaveCount(1);
  await expect(viewerPage.getByRole('button', { name: 'Pay it' })).toHaveCount(0);
  await shot(viewerPage, 'program-widget-granted-only');
  // The hidden button's program is refused on every call, whatever the page shows.
  for (const path of [
    `prepare/${s.pay}/${s.page}`,
    `display/${s.pay}/${s.page}`,
    `exec/${s.pay}/${s.page}`,
  ]) {
    const r = await request.post(`/api/common/program/${s.p}/${path}`, {
      headers: { token: s.viewer },
      data: path.startsWith('prepare') ? {} : { data: { note: 'x' } },
    });
    expect(((await r.json()) as { error: number }).error, path).toBe(1102);
  }
  const batch = await request.post(`/api/common/program/${s.p}/prepare/__/${s.page}`, {
    headers: { token: s.viewer },
    data: { names: [s.pay] },
  });
  const map = ((await batch.json()) as { data: Record<string, { error?: number }> }).data;
  expect(map[s.pay]?.error).toBe(1102);
  await other.close();
});
