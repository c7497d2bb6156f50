/**
 * The page runtime as users meet it: the demo page with real rows, the button opening a modal with
 * the detail form, phone layout, the builder's draft preview beside the published page, and builder
 * code running in the sandbox (api.notify works, fetch does not exist there).
 */
import { expect, test } from '@playwright/test';
import {
  DESKTOP,
  demoAsBuilder,
  PHONE,
  registerByApi,
  shot,
  signInWithToken,
  uniqueAccount,
  uniquePhone,
} from './helpers.ts';

test('the demo page shows its rows; the button opens the detail page in a modal; saving adds a row', async ({
  page,
  request,
}) => {
  const c = await demoAsBuilder(request);
  await signInWithToken(page, c.token, c.project);
  await page.setViewportSize(DESKTOP);
  await page.goto(`/page/${c.list}`);
  const canvas = page.locator('.lc-page');
  await expect(canvas.getByText('客户一览 / Customers')).toBeVisible();
  // Rows of the demo table came through the data API (30 customers, 10 a page).
  const table = canvas.locator('[data-wid="table"]');
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(10);
  await expect(table.getByRole('columnheader', { name: '姓名 Name' })).toBeVisible();
  await expect(canvas.locator('[data-wid="count"]')).toHaveText('30');
  await expect(canvas.locator('[data-wid="chart"] canvas')).toBeVisible();
  await shot(page, 'runtime-demo-desktop');

  // Paging asks the server for the next page (rows 11–20), not the same rows again.
  await table.locator('.ant-pagination-item-2').click();
  await expect(table.getByRole('cell', { name: '徐娟', exact: true })).toBeVisible();
  await expect(table.getByRole('cell', { name: '张伟', exact: true })).toHaveCount(0);

  await canvas.getByRole('button', { name: '新增客户 / New customer' }).click();
  const modal = page.locator('.lc-runtime-modal');
  await expect(modal.getByText('客户资料 / Customer')).toBeVisible();
  expect(
    await page
      .locator('.ant-modal-wrap')
      .last()
      .evaluate((el) => getComputedStyle(el).zIndex),
  ).toBe('4000');
  await shot(page, 'runtime-demo-modal');
  // Typed input is kept as a draft; closing without saving keeps it.
  await modal.getByLabel('姓名 Name').fill('E2E 客户');
  const drafts = () => page.evaluate(() => localStorage.getItem('lc_drafts') ?? '');
  await expect.poll(drafts).toContain('E2E 客户');
  await modal.getByRole('button', { name: 'Close' }).click();
  await expect(modal).toHaveCount(0);

  // Open again: the draft is offered back; restore it and save: the notice says "保存 succeeded".
  await canvas.getByRole('button', { name: '新增客户 / New customer' }).click();
  await expect(modal.getByText('客户资料 / Customer')).toBeVisible();
  await modal.getByRole('button', { name: 'Restore' }).click();
  await expect(modal.getByLabel('姓名 Name')).toHaveValue('E2E 客户');
  await modal.getByLabel('金额 Amount').fill('12.5');
  const before = Number(await canvas.locator('[data-wid="count"]').textContent());
  await modal.getByRole('button', { name: /保\s?存/ }).click();
  await expect(page.getByText('保存 succeeded')).toBeVisible();
  await expect(modal).toHaveCount(0);
  // The page beneath reloads what is bound to the saved table (no page reload): the count bound to
  // the table's total goes up, and the new row is in the table.
  await expect
    .poll(async () => Number(await canvas.locator('[data-wid="count"]').textContent()))
    .toBe(before + 1);
  await table.locator('.ant-pagination-item').last().click();
  await expect(table.getByRole('cell', { name: 'E2E 客户', exact: true })).toBeVisible();
  await shot(page, 'runtime-demo-refreshed');
  expect(await drafts()).not.toContain('E2E 客户');
  const rows = await c.call<{ count: number }>(`/api/app/simple/${c.project}/customer/query`, {
    query: { field: 'name', type: 'text', opt: 'eq', value: 'E2E 客户' },
    count: true,
  });
  expect(rows.count).toBe(1);
});

test('mobile mode lays the page out at phone width', async ({ page, request }) => {
  const c = await demoAsBuilder(request);
  await signInWithToken(page, c.token, c.project);
  await page.setViewportSize(PHONE);
  await page.goto(`/page/${c.list}?mode=mobile`);
  const canvas = page.locator('.lc-page');
  await expect(canvas).toHaveAttribute('data-mode', 'mobile');
  await expect(canvas.locator('[data-wid="table"] tbody tr.ant-table-row').first()).toBeVisible();
  const box = await canvas.boundingBox();
  expect(box!.width).toBeLessThanOrEqual(PHONE.width);
  // The button sits above the count on a phone, full width (its mobile position), not to the right.
  const button = await canvas.locator('[data-wid="add"]').boundingBox();
  const count = await canvas.locator('[data-wid="count"]').boundingBox();
  expect(button!.y).toBeLessThan(count!.y);
  expect(button!.width).toBeGreaterThan(box!.width * 0.9);
  await shot(page, 'runtime-demo-phone');

  // On a phone the back button closes the top modal and stays on the page.
  await canvas.getByRole('button', { name: '新增客户 / New customer' }).click();
  const modal = page.locator('.lc-runtime-modal');
  await expect(modal.getByText('客户资料 / Customer')).toBeVisible();
  await shot(page, 'runtime-demo-phone-modal');
  await page.goBack();
  await expect(modal).toHaveCount(0);
  // The shell applies ?mode= and drops it from the address (URL options).
  await expect(page).toHaveURL(new RegExp(`/page/${c.list}(\\?mode=mobile)?$`));
  await expect(canvas.getByText('客户一览 / Customers')).toBeVisible();
});

test('a builder previews an unpublished draft while the published page stays as it was', async ({
  page,
  request,
}) => {
  const c = await demoAsBuilder(request);
  const G = `/api/admin/page/${c.project}`;
  const draft = await c.call<{ document: { widgets: { id: string; props: Record<string, unknown> }[] } }>(
    `${G}/${c.detail}`,
  );
  const doc = draft.document;
  doc.widgets.find((w) => w.id === 'title')!.props.text = 'Draft title (not published)';
  await c.call(`${G}/${c.detail}/update`, { document: doc });

  await signInWithToken(page, c.token, c.project);
  await page.goto(`/dev/preview?page=${c.detail}&project=${c.project}`);
  await expect(page.getByTestId('preview-banner')).toBeVisible();
  await expect(page.locator('.lc-page').getByText('Draft title (not published)')).toBeVisible();
  await shot(page, 'runtime-preview');

  await page.goto(`/page/${c.detail}`);
  await expect(page.locator('.lc-page').getByText('客户资料 / Customer')).toBeVisible();
  await expect(page.getByText('Draft title (not published)')).toHaveCount(0);

  // The app route (a menu page entry's, rule 9) shows the published page in the shell; with
  // ?o_w_full=1 it stands alone (embedding).
  await page.goto(`/app/${c.project}/${c.detail}`);
  await expect(page.locator('.lc-app-page .lc-page').getByText('客户资料 / Customer')).toBeVisible();
  await expect(page.getByTestId('current-user')).toBeVisible();
  await expect(page.getByText('Draft title (not published)')).toHaveCount(0);
  await page.goto(`/app/${c.project}/${c.detail}?o_w_full=1`);
  await expect(page.locator('.lc-app-page .lc-page').getByText('客户资料 / Customer')).toBeVisible();
  await expect(page.getByTestId('current-user')).toHaveCount(0);
  await expect(page.locator('.top-bar')).toHaveCount(0);
});

test('code commands run in the sandbox: api.notify shows a notice, fetch is not reachable', async ({
  page,
  request,
}) => {
  const c = await demoAsBuilder(request);
  const G = `/api/admin/page/${c.project}`;
  const code = [
    "api.notify('hello from the sandbox');",
    "api.notify('fetch is ' + typeof fetch + ', XMLHttpRequest is ' + typeof XMLHttpRequest);",
    'const rows = await api.query("customer", { page: { index: 1, size: 1 }, count: true });',
    "api.notify('customers: ' + rows.count);",
  ].join('\n');
  const button = (id: string, text: string, y: number, actions: unknown[]) => ({
    id,
    kind: 'button',
    version: 1,
    props: { text },
    layout: { pc: { x: 0, y, w: 20, h: 4 }, mobile: { x: 0, y, w: 38, h: 4 } },
    events: { onClick: actions },
  });
  const document = {
    id: 'x',
    title: 'Sandbox',
    version: 1,
    layout: {
      pc: { cols: 120, rowHeight: 10, width: 1200 },
      mobile: { cols: 38, rowHeight: 10, width: 375 },
    },
    widgets: [
      button('run', 'Run code', 0, [{ type: 'runCode', code }]),
      button('loop', 'Loop', 12, [{ type: 'runCode', code: 'while (true) {}' }]),
      button('program', 'Run program', 6, [
        { type: 'runProgram', program: '0123456789abcdef01234567' },
        { type: 'notify', message: 'should not show' },
      ]),
      {
        id: 'name',
        kind: 'textbox',
        version: 2,
        props: { placeholder: 'Name' },
        layout: { pc: { x: 30, y: 0, w: 30, h: 4 }, mobile: { x: 0, y: 18, w: 38, h: 4 } },
      },
      button('fill', 'Fill name', 18, [{ type: 'setValue', target: 'name', value: 'filled by an action' }]),
    ],
  };
  const created = await c.call<{ _id: string }>(`${G}/create`, {
    name: `Sandbox ${Date.now().toString(36)}`,
    document,
  });
  await c.call(`${G}/${created._id}/publish`, {});

  await signInWithToken(page, c.token, c.project);
  await page.goto(`/page/${created._id}`);
  await page.getByRole('button', { name: 'Run code' }).click();
  await expect(page.getByText('hello from the sandbox')).toBeVisible();
  await expect(page.getByText('fetch is undefined, XMLHttpRequest is undefined')).toBeVisible();
  await expect(page.getByText('customers: ')).toBeVisible();
  await shot(page, 'runtime-sandbox');

  // A setValue action changes what the widget shows, not only what expressions read.
  await page.getByRole('button', { name: 'Fill name' }).click();
  await expect(page.getByPlaceholder('Name')).toHaveValue('filled by an action');

  // The programs API answers a coded error: it is shown and the list stops there.
  await page.getByRole('button', { name: 'Run program' }).click();
  await expect(page.getByText(/^1800: program not found/)).toBeVisible();
  await shot(page, 'runtime-program-error');
  await expect(page.getByText('should not show')).toHaveCount(0);

  // Code that never ends is stopped after the time limit with an error notice; the next run works.
  await page.getByRole('button', { name: 'Loop' }).click();
  await expect(page.getByText(/code ran longer than 5 s and was stopped/)).toBeVisible();
  await page.getByRole('button', { name: 'Run code' }).click();
  await expect(page.getByText('hello from the sandbox').first()).toBeVisible();

  // The project's setup script runs once when the page opens; code commands run after it and see
  // what it defined in the worker. It is the project's: it acts only on this test's page
  // (?e2e=greet), so tests in other files on the demo project never see its notice.
  await c.call(`/api/admin/project/${c.project}/custom/set`, {
    code: "if (api.params.e2e === 'greet') { globalThis.greet = (n) => 'greetings, ' + n; api.notify('setup ran'); }",
  });
  try {
    const withGreet = await c.call<{ _id: string }>(`${G}/create`, {
      name: `Setup ${Date.now().toString(36)}`,
      document: {
        ...document,
        widgets: [button('greet', 'Greet', 0, [{ type: 'runCode', code: "api.notify(greet('Ann'))" }])],
      },
    });
    await c.call(`${G}/${withGreet._id}/publish`, {});
    await page.goto(`/page/${withGreet._id}?e2e=greet`);
    await expect(page.getByText('setup ran')).toBeVisible();
    await page.getByRole('button', { name: 'Greet' }).click();
    await expect(page.getByText('greetings, Ann')).toBeVisible();
    // Setup ran once, not again for the code command (the notice may have timed out by now).
    expect(await page.getByText('setup ran').count()).toBeLessThanOrEqual(1);
  } finally {
    await c.call(`/api/admin/project/${c.project}/custom/set`, { code: '' });
  }
});

test('a setup script uses the page api: values, t, user, data save/update/remove, actions; a script awaits a modal', async ({
  page,
  request,
}) => {
  const c = await demoAsBuilder(request);
  const G = `/api/admin/page/${c.project}`;
  const layout = {
    pc: { cols: 120, rowHeight: 10, width: 1200 },
    mobile: { cols: 38, rowHeight: 10, width: 375 },
  };
  const at = (y: number, x = 0, w = 40) => ({ pc: { x, y, w, h: 4 }, mobile: { x: 0, y, w: 38, h: 4 } });
  const suffix = Date.now().toString(36);
  // The page a script opens in a modal: its button closes the modal with a result.
  const answer = await c.call<{ _id: string }>(`${G}/create`, {
    name: `Answer ${suffix}`,
    document: {
      id: 'answer',
      title: 'Answer',
      version: 1,
      layout,
      widgets: [
        {
          id: 'ok',
          kind: 'button',
          version: 1,
          props: { text: 'Answer 42' },
          layout: at(0),
          events: { onClick: [{ type: 'closeModal', result: { answer: 42 } }] },
        },
      ],
    },
  });
  await c.call(`${G}/${answer._id}/publish`, {});
  const ask = [
    `const r = await api.openModal('${answer._id}', { from: 'script' });`,
    "api.notify('modal said ' + JSON.stringify(r));",
  ].join('\n');
  const scripted = await c.call<{ _id: string }>(`${G}/create`, {
    name: `Script API ${suffix}`,
    document: {
      id: 'script',
      title: 'Script API',
      version: 1,
      layout,
      state: { msg: { type: 'string', default: 'not set' } },
      widgets: [
        { id: 'greeting', kind: 'textbox', version: 2, props: { placeholder: 'Greeting' }, layout: at(0) },
        { id: 'msg', kind: 'text', version: 1, props: { text: 'state: {{ state.msg }}' }, layout: at(6) },
        {
          id: 'count',
          kind: 'number',
          version: 1,
          props: { value: { $expr: 'widgets.list.total' }, decimals: 0, duration: 0 },
          layout: at(12),
        },
        {
          id: 'ask',
          kind: 'button',
          version: 1,
          props: { text: 'Ask' },
          layout: at(18),
          events: { onClick: [{ type: 'runCode', code: ask }] },
        },
        {
          id: 'list',
          kind: 'table',
          version: 1,
          props: { entity: 'customer', pageSize: 5 },
          layout: { pc: { x: 0, y: 24, w: 120, h: 30 }, mobile: { x: 0, y: 24, w: 38, h: 30 } },
        },
      ],
    },
  });
  await c.call(`${G}/${scripted._id}/publish`, {});

  // The setup script is the project's: it acts only on this test's page (?e2e=setup), so other
  // pages of the demo opened meanwhile are left alone.
  const setup = `
    if (api.params.e2e !== 'setup') return;
    const who = api.user.nickname || api.user.user;
    await api.setValue('greeting', api.t({ zh: '你好，{n}', en: 'Hello, {n}' }, { n: who }));
    await api.setValue('state.msg', 'lang=' + api.lang + ' user=' + api.user.user);
    const saved = await api.save('customer', { name: 'Setup ${suffix}', amount: 5 });
    const updated = await api.update('customer', saved._id, { name: 'Setup ${suffix} v2' });
    const found = await api.query('customer', {
      query: { field: 'name', type: 'text', opt: 'eq', value: updated.name },
      count: true,
    });
    api.notify('found ' + found.count + ' named ' + updated.name, 'success');
    await api.remove('customer', saved._id);
    try { await api.save('customer', { nosuchfield: 1 }); } catch (e) { api.notify('refused: ' + e.message, 'warning'); }
    await api.runAction({ type: 'notify', level: 'info', message: 'action sees {{ state.msg }}' });
  `;
  await c.call(`/api/admin/project/${c.project}/custom/set`, { code: setup });
  try {
    await signInWithToken(page, c.token, c.project);
    await page.goto(`/page/${scripted._id}?e2e=setup`);
    const canvas = page.locator('.lc-page');
    await expect(canvas.getByPlaceholder('Greeting')).toHaveValue(/^Hello, \S+/);
    await expect(canvas.getByText('state: lang=en user=builder')).toBeVisible();
    await expect(page.getByText(`found 1 named Setup ${suffix} v2`)).toBeVisible();
    await expect(page.getByText(/^refused: \d+: /)).toBeVisible();
    await expect(page.getByText('action sees lang=en user=builder')).toBeVisible();
    await shot(page, 'runtime-setup-script');
    // Saved, updated and removed through the user's data calls: nothing of it is left.
    const left = await c.call<{ count: number }>(`/api/app/simple/${c.project}/customer/query`, {
      query: { field: 'name', type: 'text', opt: 'start', value: `Setup ${suffix}` },
      count: true,
    });
    expect(left.count).toBe(0);
    const all = await c.call<{ count: number }>(`/api/app/simple/${c.project}/customer/query`, {
      count: true,
      page: { index: 1, size: 1 },
    });
    await expect(canvas.locator('[data-wid="count"]')).toHaveText(String(all.count));

    // A code command awaits a modal: the user takes longer than the 5 s limit; the run waits and
    // gets what the modal closed with.
    await canvas.getByRole('button', { name: 'Ask' }).click();
    const modal = page.locator('.lc-runtime-modal');
    await expect(modal.getByRole('button', { name: 'Answer 42' })).toBeVisible();
    await page.waitForTimeout(6000);
    await modal.getByRole('button', { name: 'Answer 42' }).click();
    await expect(modal).toHaveCount(0);
    await expect(page.getByText('modal said {"answer":42}')).toBeVisible();
    await expect(page.getByText(/was stopped/)).toHaveCount(0);
  } finally {
    await c.call(`/api/admin/project/${c.project}/custom/set`, { code: '' });
  }
});

test('a user who may not see the page is sent to /no-authority', async ({ page, request }) => {
  const c = await demoAsBuilder(request);
  const user = uniqueAccount('outsider');
  await registerByApi(request, { user, pwd: 'abc12345', phone: uniquePhone(), nickname: 'Outsider' });
  const login = await request.post('/api/common/user/login', { data: { user, pwd: 'abc12345' } });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  await signInWithToken(page, token, c.project);
  await page.goto(`/page/${c.list}`);
  await expect(page).toHaveURL(/\/no-authority$/);
  await expect(page.locator('.lc-page')).toHaveCount(0);
});
