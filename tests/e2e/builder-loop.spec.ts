/**
 * The builder's loop (issue #9, last step): a table with rows, a blank page created in the pages list,
 * a table widget dragged onto it in the designer and bound to the table in the property panel,
 * published with a note, and an end user granted the page and the table opening it and seeing rows.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { ADMIN, DESKTOP, pick, shot, signInWithToken } from './helpers.ts';

async function api<T>(
  request: APIRequestContext,
  token: string | null,
  url: string,
  data?: unknown,
): Promise<T> {
  const headers = token ? { token } : undefined;
  const res =
    data === undefined ? await request.get(url, { headers }) : await request.post(url, { headers, data });
  const body = (await res.json()) as { error: number; msg?: string; data: T };
  expect(body.error, `${url}: ${body.msg}`).toBe(0);
  return body.data;
}

async function signInAs(page: Page, token: string, project: string, mode: 'dev' | 'app'): Promise<void> {
  await signInWithToken(page, token, project, 'en', mode);
}

test('a builder puts a table on a page, publishes it, and an end user sees the rows', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const owner = (await api<{ token: string }>(request, null, '/api/common/user/login', ADMIN)).token;
  const suffix = Date.now().toString(36).slice(-5);
  const project = (
    await api<{ _id: string }>(request, owner, '/api/common/project/create', { name: `Loop ${suffix}` })
  )._id;
  const P = `/api/admin/project/${project}`;
  const entity = await api<{ _id: string }>(request, owner, `${P}/entity/create`, {
    name: 'Tasks',
    code: 'tasks',
  });
  await api(request, owner, `${P}/tasks/field/create`, { name: 'Title', type: 'string', field: 'title' });
  for (const title of ['Write spec', 'Ship it', 'Celebrate'])
    await api(request, owner, `/api/admin/data/${project}/tasks/save`, { title });

  // The builder: pages list → blank page → designer.
  const ctx = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
  const page = await ctx.newPage();
  await signInAs(page, owner, project, 'dev');
  await page.goto('/dev/pages');
  await page.getByTestId('new-page').click();
  await page.locator('#page-create_name').fill('Task board');
  await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn-primary').click();
  const row = page.getByTestId('page-row-Task board');
  await expect(row.getByTestId('page-state')).toHaveText('Never published');
  await row.getByTestId('page-name').click();
  await expect(page.getByTestId('designer')).toBeVisible();
  await expect(page.getByTestId('collab-status')).toHaveAttribute('data-status', 'connected');
  const pageId = new URL(page.url()).pathname.split('/').pop()!;

  // Drag a table widget onto the canvas and bind it to Tasks in the property panel.
  const grid = page.getByTestId('canvas').locator('.dz-grid').first();
  await page.getByTestId('palette-table').dragTo(grid, { targetPosition: { x: 200, y: 40 } });
  const table = page.getByTestId('canvas').locator('.dz-item[data-kind="table"]');
  await expect(table).toHaveCount(1);
  await table.click();
  const panel = page.getByTestId('property-panel');
  await expect(panel).toHaveAttribute('data-kind', 'table');
  await pick(page, panel.locator('[data-prop="prop-entity"] .ant-select'), 'Tasks');
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  await shot(page, 'loop-designer-table-bound');

  // Publish with a note.
  await page.getByTestId('publish').click();
  await page.getByTestId('publish-note').fill('First version');
  await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn-primary').click();
  await expect(page.locator('.ant-message')).toContainText('1');
  await ctx.close();

  // An end user with the page and the table granted opens the published page and sees the rows.
  const role = await api<{ _id: string }>(request, owner, `/api/admin/auth/${project}/main/role/create`, {
    name: 'Staff',
    type: 'common',
  });
  await api(request, owner, `/api/admin/auth/${project}/main/role/${role._id}/bind`, {
    page: [pageId],
    entity: [entity._id],
  });
  const account = `staff${suffix}`;
  await api(request, owner, `/api/admin/user/${project}/create`, {
    role: role._id,
    account,
    pwd: 'secret123',
    name: 'Staff',
  });
  const user = (
    await api<{ token: string }>(request, null, '/api/common/user/login', { user: account, pwd: 'secret123' })
  ).token;
  const endUser = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
  const view = await endUser.newPage();
  await signInAs(view, user, project, 'app');
  await view.goto(`/page/${pageId}`);
  const rows = view.locator('.lc-page .ant-table-row');
  await expect(rows).toHaveCount(3);
  await expect(view.locator('.lc-page')).toContainText('Celebrate');
  await shot(view, 'loop-end-user-page');
  await endUser.close();
});

test('the dashboard template counts the rows of its table on the published page', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const owner = (await api<{ token: string }>(request, null, '/api/common/user/login', ADMIN)).token;
  const suffix = Date.now().toString(36).slice(-5);
  const project = (
    await api<{ _id: string }>(request, owner, '/api/common/project/create', { name: `Dash ${suffix}` })
  )._id;
  const P = `/api/admin/project/${project}`;
  await api(request, owner, `${P}/entity/create`, { name: 'Sales', code: 'sales' });
  await api(request, owner, `${P}/sales/field/create`, { name: 'Region', type: 'string', field: 'region' });
  await api(request, owner, `${P}/sales/field/create`, { name: 'Amount', type: 'number', field: 'amount' });
  for (const [region, amount] of [
    ['North', 10],
    ['South', 20],
    ['North', 5],
    ['East', 7],
  ] as const)
    await api(request, owner, `/api/admin/data/${project}/sales/save`, { region, amount });

  const ctx = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
  const page = await ctx.newPage();
  await signInAs(page, owner, project, 'dev');
  await page.goto('/dev/pages');
  await page.getByTestId('new-page').click();
  await page.locator('#page-create_name').fill('Sales board');
  await pick(page, page.locator('#page-create_template'), 'Dashboard');
  await pick(page, page.locator('#page-create_table'), 'Sales');
  await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn-primary').click();
  const row = page.getByTestId('page-row-Sales board');
  await row.getByTestId('page-publish').click();
  await page.locator('#page-publish_note').fill('v1');
  await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn-primary').click();
  await expect(row.getByTestId('page-state')).toHaveText('Published v1');
  const href = await row.getByTestId('page-name').getAttribute('href');
  const pageId = href!.split('?')[0]!.split('/').pop()!;

  await page.evaluate(() => localStorage.setItem('lc_mode', 'app'));
  await page.goto(`/page/${pageId}`);
  // The count widget animates up to the table's row count.
  await expect
    .poll(
      async () => ((await page.locator('.lc-page [data-kind="number"]').first().textContent()) ?? '').trim(),
      {
        timeout: 15_000,
      },
    )
    .toBe('4');
  await shot(page, 'loop-dashboard');
  await ctx.close();
});
