/**
 * The program editor in the browser, as a builder and without typing any JSON: a program with an input
 * step, a condition, an update in its "then" branch and a display step, made through the step tree and
 * the generated step panels; undo from the keyboard; a test run on a record picked from the table
 * (trace and the rows that would change shown, the rows grid still shows the old values); release, the
 * version and the run log on screen; bound to a table menu entry (menus screen) and a program widget,
 * an end user granted it selects a row, runs it, fills the input and sees the message and the row
 * change, while a user not granted it sees no button and is refused (the "Done when").
 * Record triggers set in the editor, and test-run after an update of a picked row with edited values.
 * Desktop and phone screenshots.
 */
import { expect, type Page, test } from '@playwright/test';
import { adminApi, DESKTOP, PHONE, pick, shot, signInWithToken, uniqueAccount } from './helpers.ts';

async function seed(request: Parameters<typeof adminApi>[0]) {
  const call = await adminApi(request);
  const suffix = Date.now().toString(36);
  const p = (await call<{ _id: string }>('/api/common/project/create', { name: `Editor ${suffix}` }))._id;
  const code = `o${suffix}`;
  await call(`/api/admin/project/${p}/module/create`, { name: 'Sales' });
  const entity = await call<{ _id: string }>(`/api/admin/project/${p}/entity/create`, {
    name: 'Orders',
    code,
  });
  for (const [name, type] of [
    ['item', 'string'],
    ['status', 'string'],
  ])
    await call(`/api/admin/project/${p}/${code}/field/create`, { name, type, field: name });
  for (const item of ['Apples', 'Pears'])
    await call(`/api/admin/data/${p}/${code}/save`, { item, status: 'new' });
  return { call, p, code, entity: entity._id };
}

/** A member of the project whose role is granted the menu entry, page and table, and these programs. */
async function member(
  request: Parameters<typeof adminApi>[0],
  call: Awaited<ReturnType<typeof adminApi>>,
  p: string,
  name: string,
  grants: { route: string; page: string; entity: string; programs: string[] },
): Promise<string> {
  const role = await call<{ _id: string }>(`/api/admin/auth/${p}/main/role/create`, { name, type: 'common' });
  await call(`/api/admin/auth/${p}/main/role/${role._id}/bind`, {
    route: [grants.route],
    page: [grants.page],
    entity: [grants.entity],
    program: grants.programs,
  });
  const account = uniqueAccount(name.toLowerCase());
  await call(`/api/admin/user/${p}/create`, { role: role._id, account, pwd: 'secret123', name });
  return (await adminApi(request, { user: account, pwd: 'secret123' })).token;
}

const at = (y: number, h = 6) => ({ pc: { x: 0, y, w: 100, h }, mobile: { x: 0, y, w: 38, h } });

/** Adds a step of a type to the list named by its path key ('top' for the top level). */
async function addStep(page: Page, list: string, title: string) {
  await page.getByTestId(`add-step-${list}`).click();
  await page.locator('.ant-dropdown:visible').getByText(title, { exact: true }).click();
}

const panel = (page: Page) => page.getByTestId('step-panel');

test('a builder makes, test-runs, releases and binds a program; a granted end user runs it, others cannot', async ({
  page,
  request,
}) => {
  // Many steps through the real UI on a shared machine.
  test.setTimeout(420_000);
  const { call, p, code, entity } = await seed(request);
  await signInWithToken(page, call.token, p);
  await page.setViewportSize(DESKTOP);
  await page.goto('/dev/programs');
  await expect(page.getByTestId('programs-screen')).toBeVisible();
  await page.getByPlaceholder('Program name').fill('Mark paid');
  await pick(page, page.getByLabel('Module'), 'Sales');
  await page.getByRole('button', { name: 'New program' }).click();
  const editor = page.getByTestId('program-editor');
  await expect(editor.getByText('Not released')).toBeVisible();
  // Listed under its module.
  await expect(
    page.locator('.prog-module[data-module="Sales"]').getByTestId('program-Mark paid'),
  ).toBeVisible();
  await pick(page, page.getByTestId('program-table'), 'Orders');

  // 1. An input step asking for a note.
  await addStep(page, 'top', 'Input form');
  await panel(page).getByTestId('step-prop-fields-add').click();
  await panel(page).getByTestId('step-prop-fields-0-key').fill('note');
  await panel(page).getByTestId('step-prop-fields-0-name').fill('Note');

  // 2. A condition on the record's status, with an update in its "then" branch.
  await addStep(page, 'top', 'Condition');
  await panel(page).getByTestId('step-prop-if').fill('record.status == "new"');
  await page.keyboard.press('Escape');
  await addStep(page, '1/yes', 'Update record');
  await expect(page.getByTestId('step-update1')).toBeVisible();
  // The record id expression completes the variables in scope.
  const id = panel(page).getByTestId('step-prop-id');
  await id.fill('rec');
  await expect(page.locator('.ant-select-dropdown:visible [data-hint="record._id"]')).toBeVisible();
  await expect(page.locator('.ant-select-dropdown:visible [data-hint="record.status"]')).toBeVisible();
  await id.fill('record._id');
  await page.keyboard.press('Escape');
  await panel(page).getByTestId('step-prop-values-add').click();
  await pick(page, panel(page).getByTestId('step-prop-values-0-field'), 'status');
  await panel(page).getByTestId('step-prop-values-0-expr').fill('"paid"');
  await page.keyboard.press('Escape');

  // 3. A display step at the top level, its message from the record and the input.
  await addStep(page, 'top', 'Display');
  await panel(page).getByTestId('step-prop-message').fill('Marked {{ record.item }} paid: {{ params.note }}');

  // Duplicate it, then take that back with the keyboard.
  await page.getByRole('button', { name: 'Duplicate display1', exact: true }).click();
  await expect(page.getByTestId('step-display2')).toBeVisible();
  await page.getByTestId('step-tree').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('step-display2')).toHaveCount(0);
  await expect(page.getByTestId('step-display1')).toBeVisible();

  // Drag the display step into the empty "else" branch, then undo that too.
  const handle = page.getByTestId('drag-display1');
  const target = page.locator('[data-list="1/no"]');
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 - 10, { steps: 3 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
  await page.mouse.up();
  await expect(target.getByTestId('step-display1')).toBeVisible();
  await page.getByTestId('step-tree').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('Control+z');
  await expect(target.getByTestId('step-display1')).toHaveCount(0);
  await expect(
    page.locator('[data-list="top"] > .prog-step-wrap').last().getByTestId('step-display1'),
  ).toBeVisible();

  // Autosave: the draft on the server has the four steps, nested as built.
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  const flows = await call<
    { _id: string; _name: string; _process: { _type: string; _procedure: Record<string, unknown> }[] }[]
  >(`/api/admin/project/${p}/flow`);
  const flow = flows.find((f) => f._name === 'Mark paid')!;
  expect(flow._process.map((s) => s._type)).toEqual(['input', 'condition', 'display']);
  expect((flow._process[1]!._procedure.yes as { _type: string; _procedure: unknown }[])[0]).toMatchObject({
    _type: 'update',
    _procedure: { id: 'record._id', values: { status: '"paid"' } },
  });
  await page.getByTestId('step-update1').click();
  await shot(page, 'program-editor-steps');

  // Test run on Apples with a note: rolled back, the trace and the row that would change.
  await page.getByRole('tab', { name: 'Test run' }).click();
  await pick(page, page.getByTestId('test-record'), 'Apples');
  await page.getByTestId('test-input').getByLabel('Note').fill('cash');
  await page.getByTestId('test-run-go').click();
  const result = page.getByTestId('test-result');
  await expect(result.getByText('Test run: rolled back, nothing was changed')).toBeVisible();
  await expect(result.getByText('status: "new" → "paid"')).toBeVisible();
  await expect(result.getByText('display1: Marked Apples paid: cash')).toBeVisible();
  for (const step of ['cond', 'update1', 'display1'])
    await expect(result.locator(`[data-trace-step^="${step}"]`).first()).toBeVisible();
  await result.locator('[data-trace-step="update1"]').click();
  await expect(result.locator('.prog-trace-data').first()).toBeVisible();
  await shot(page, 'program-editor-test-run');

  // Nothing changed: the rows grid still shows both orders as new.
  await page.goto(`/dev/data/${entity}?tab=rows`);
  const grid = page.getByTestId('rows-grid');
  await expect(grid.getByTestId('cell-item')).toHaveCount(2);
  await expect(grid.getByTestId('cell-status').filter({ hasText: 'new' })).toHaveCount(2);
  await expect(grid.getByTestId('cell-status').filter({ hasText: 'paid' })).toHaveCount(0);

  // Release: version 1 is live; the versions tab and the run log show it and the test run.
  await page.goto(`/dev/programs?program=${flow._id}`);
  await expect(page.getByTestId('program-editor')).toBeVisible();
  await page.getByRole('button', { name: 'Release', exact: true }).click();
  await expect(page.getByTestId('program-editor').getByText('Version 1', { exact: true })).toBeVisible();
  await expect(page.getByTestId('program-Mark paid').getByText('v1')).toBeVisible();
  await page.getByRole('tab', { name: 'Versions' }).click();
  await expect(page.getByTestId('versions').getByText('live')).toBeVisible();
  // Restore puts version 1 back into the draft (here: the same steps), and says so.
  await page.getByTestId('versions').getByRole('button', { name: 'Restore' }).click();
  await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Version 1 restored into the draft')).toBeVisible();
  await page.getByRole('tab', { name: 'Run log' }).click();
  const log = page.getByTestId('run-log');
  await expect(log.getByText('test', { exact: true })).toBeVisible();
  await expect(log.getByText('rolled back')).toBeVisible();
  await shot(page, 'program-editor-run-log');

  await page.setViewportSize(PHONE);
  await page.goto(`/dev/programs?program=${flow._id}`);
  await expect(page.getByTestId('step-tree')).toBeVisible();
  await expect(page.getByTestId('step-update1')).toBeVisible();
  await shot(page, 'program-editor-phone');
  await page.setViewportSize(DESKTOP);

  // Bind the released program to a table menu entry, on the menus screen.
  const entry = await call<{ _id: string }>(`/api/admin/route/${p}/create`, {
    type: 'table',
    name: 'Orders',
    value: code,
  });
  await page.goto('/dev/menus');
  await page.getByTestId('menu-row-Orders').getByTestId('menu-bind').click();
  const bind = page.locator('.ant-modal:visible');
  await pick(page, bind.locator('.ant-select'), 'Mark paid');
  await bind.locator('.ant-modal-title').click();
  await bind.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByTestId('menu-row-Orders')).toContainText('Mark paid');
  // …and to a program widget on a published page.
  const desk = await call<{ _id: string }>(`/api/admin/page/${p}/create`, {
    name: 'Desk',
    document: {
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
          props: { title: 'Actions', program: [{ name: 'Mark paid', flow: flow._id }] },
          layout: at(0, 10),
        },
      ],
    },
  });
  await call(`/api/admin/page/${p}/${desk._id}/publish`, {});
  const grants = { route: entry._id, page: desk._id, entity };
  const clerk = await member(request, call, p, 'Clerk', { ...grants, programs: [flow._id] });
  const viewer = await member(request, call, p, 'Viewer', { ...grants, programs: [] });

  // An end user granted it: select a row, run it, fill the input, see the result and the row change.
  const ctx = await page.context().browser()!.newContext();
  const user = await ctx.newPage();
  await signInWithToken(user, clerk, p);
  await user.goto(`/home/${code}`);
  const row = (pg: Page, item: string) =>
    pg.locator('[data-testid="data-view"] .ant-table-tbody tr.ant-table-row', { hasText: item });
  await expect(row(user, 'Pears')).toContainText('new');
  await row(user, 'Pears').locator('.ant-checkbox-input').check();
  await user.getByTestId('view-program').click();
  await user.getByTestId('program-input').getByLabel('Note').fill('card');
  await user.getByRole('button', { name: 'Run' }).click();
  await expect(user.getByText('Marked Pears paid: card')).toBeVisible();
  await expect(row(user, 'Pears')).toContainText('paid');
  await expect(row(user, 'Apples')).toContainText('new');
  await shot(user, 'program-done-when-end-user');
  // The program widget shows its button to this user.
  await user.goto(`/page/${desk._id}`);
  await expect(user.getByTestId('program-buttons').getByRole('button', { name: 'Mark paid' })).toBeVisible();
  await ctx.close();

  // A user not granted it sees it nowhere and cannot call it.
  const ctx2 = await page.context().browser()!.newContext();
  const other = await ctx2.newPage();
  await signInWithToken(other, viewer, p);
  await other.goto(`/home/${code}`);
  await expect(row(other, 'Apples')).toBeVisible();
  await expect(other.getByTestId('view-program')).toHaveCount(0);
  await other.goto(`/page/${desk._id}`);
  await expect(other.getByTestId('program-buttons')).toHaveAttribute('data-ready', 'true');
  await expect(other.getByTestId('program-buttons').getByRole('button')).toHaveCount(0);
  const refused = await request.post(`/api/common/program/${p}/exec/${flow._id}/x`, {
    headers: { token: viewer },
    data: { data: { note: 'x' } },
  });
  expect(((await refused.json()) as { error: number }).error).toBe(1102);
  await ctx2.close();
});

test('a builder makes a program a record trigger in the editor: chosen writes saved, checked, shown, and run', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const { call, p, code, entity } = await seed(request);
  const made = await call<{ _id: string }>(`/api/admin/flow/${p}/create`, {
    name: 'Stamp',
    _process: [
      {
        _type: 'update',
        _handle: 'stamp',
        _entity: code,
        _procedure: { id: 'record._id', values: { status: "'stamped ' + params.op" } },
      },
    ],
  });
  await signInWithToken(page, call.token, p);
  await page.setViewportSize(DESKTOP);
  await page.goto(`/dev/programs?program=${made._id}`);
  const trigger = page.getByTestId('program-trigger');
  // No table yet: nothing to watch.
  await expect(trigger.getByLabel('update')).toBeDisabled();
  await pick(page, page.getByTestId('program-table'), 'Orders');
  await trigger.getByLabel('update').check();
  await trigger.getByLabel('create').check();
  await expect(page.getByTestId('trigger-tag')).toHaveText('Runs after create, update');
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  type F = { _id: string; _option: { trigger?: { on: string[] }; _entity?: string } };
  const stored = async () =>
    (await call<F[]>(`/api/admin/project/${p}/flow`)).find((f) => f._id === made._id)!;
  expect((await stored())._option).toMatchObject({ _entity: entity, trigger: { on: ['create', 'update'] } });
  await expect(page.getByTestId('program-Stamp').getByTestId('flow-trigger')).toBeVisible();

  // A trigger cannot ask for input: the server refuses the draft, and says why.
  await addStep(page, 'top', 'Input form');
  await expect(page.getByTestId('save-error')).toContainText('1801');
  await expect(page.getByTestId('save-error')).toContainText('cannot ask for input');
  await shot(page, 'program-editor-trigger-refused');
  await page.getByTestId('step-tree').click({ position: { x: 2, y: 2 } });
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('save-state')).toHaveText('Saved');

  // Shown again after a reload; unticking one write saves the other alone.
  await page.reload();
  await expect(trigger.getByLabel('update')).toBeChecked();
  await expect(trigger.getByLabel('create')).toBeChecked();
  await trigger.getByLabel('create').uncheck();
  await expect(page.getByTestId('trigger-tag')).toHaveText('Runs after update');
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  expect((await stored())._option.trigger).toEqual({ on: ['update'] });
  await shot(page, 'program-editor-trigger');

  // Test-run it as it will run: after an update of a picked row, with the values edited; the program
  // gets params.op/old/new, the answer shows the write and the stamp, and nothing is kept.
  await page.getByRole('tab', { name: 'Test run' }).click();
  const tt = page.getByTestId('test-trigger');
  await expect(tt.getByTestId('test-trigger-op')).toContainText('update');
  await expect(tt.getByTestId('test-trigger-op')).not.toContainText('create');
  await pick(page, tt.getByTestId('test-record'), 'Apples');
  const values = tt.getByTestId('test-trigger-values');
  await expect(values.getByLabel('item')).toHaveValue('Apples');
  await expect(values.getByLabel('status')).toHaveValue('new');
  await values.getByLabel('item').fill('Red apples');
  await page.getByTestId('test-run-go').click();
  const tr = page.getByTestId('test-result');
  await expect(tr.getByText('Test run: rolled back, nothing was changed')).toBeVisible();
  await expect(tr.getByTestId('test-trigger-write')).toContainText('Run after the update of');
  await expect(tr.getByTestId('test-trigger-write')).toContainText('item: "Apples" → "Red apples"');
  await expect(tr.getByText('status: "new" → "stamped update"')).toBeVisible();
  await tr.locator('[data-trace-step="stamp"]').click();
  await expect(tr.locator('.prog-trace-data').first()).toContainText('stamped update');
  await shot(page, 'program-editor-trigger-test-run');
  // A row the write cannot take is refused with its code, and nothing runs.
  await values.getByLabel('item').fill('x'.repeat(20_001));
  await page.getByTestId('test-run-go').click();
  await expect(page.getByTestId('test-run').getByRole('alert')).toContainText('2060');
  const unchanged = await call<{ data: { item: string; status: string }[] }>(
    `/api/admin/data/${p}/${code}/query`,
    { page: { index: 1, size: 10 } },
  );
  expect(unchanged.data.map((r) => [r.item, r.status]).sort()).toEqual([
    ['Apples', 'new'],
    ['Pears', 'new'],
  ]);

  // Released, it runs after each update of an order, in the write's transaction.
  await page.getByRole('button', { name: 'Release', exact: true }).click();
  await expect(page.getByTestId('program-editor').getByText('Version 1', { exact: true })).toBeVisible();
  const rows = await call<{ data: { _id: string; item: string; status: string }[] }>(
    `/api/admin/data/${p}/${code}/query`,
    { page: { index: 1, size: 10 } },
  );
  const apples = rows.data.find((r) => r.item === 'Apples')!;
  await call(`/api/admin/data/${p}/${code}/${apples._id}/update`, { item: 'Green apples' });
  const after = await call<{ data: { _id: string; item: string; status: string }[] }>(
    `/api/admin/data/${p}/${code}/query`,
    { page: { index: 1, size: 10 } },
  );
  expect(after.data.find((r) => r._id === apples._id)).toMatchObject({
    item: 'Green apples',
    status: 'stamped update',
  });
  // Not a create trigger any more: a new order stays as written.
  await call(`/api/admin/data/${p}/${code}/save`, { item: 'Plums', status: 'new' });
  const last = await call<{ data: { item: string; status: string }[] }>(
    `/api/admin/data/${p}/${code}/query`,
    {
      page: { index: 1, size: 10 },
    },
  );
  expect(last.data.find((r) => r.item === 'Plums')?.status).toBe('new');
});

test('a code step is edited in Monaco; a source that does not parse is refused on save, naming the step', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const { call, p } = await seed(request);
  await signInWithToken(page, call.token, p);
  await page.goto('/dev/programs');
  await page.getByPlaceholder('Program name').fill('Compute');
  await page.getByRole('button', { name: 'New program' }).click();
  await expect(page.getByTestId('program-editor')).toBeVisible();
  await addStep(page, 'top', 'Code');
  const code = panel(page).getByTestId('code-editor');
  await expect(code.locator('.monaco-editor')).toBeVisible();
  await code.locator('.view-lines').click();
  await page.keyboard.type('return (1 +;');
  await expect(page.getByTestId('save-state')).toHaveText('Not saved');
  await expect(page.getByTestId('save-error')).toContainText('1801');
  await expect(page.getByTestId('save-error')).toContainText('step code1 does not parse');
  await shot(page, 'program-editor-code-error');
  await page.keyboard.press('Control+a');
  await page.keyboard.type('return 6 * 7;');
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  await page.getByRole('tab', { name: 'Test run' }).click();
  await page.getByTestId('test-run-go').click();
  await expect(page.getByTestId('test-result').locator('[data-trace-step="code1"]')).toBeVisible();
  await page.getByTestId('test-result').locator('[data-trace-step="code1"]').click();
  await expect(page.getByTestId('test-result').locator('.prog-trace-data')).toContainText('42');
});
