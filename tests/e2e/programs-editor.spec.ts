/**
 * The program editor in the browser, as a builder and without typing any JSON: a program with an input
 * step, a condition, an update in its "then" branch and a display step, made through the step tree and
 * the generated step panels; undo from the keyboard; a test run on a record picked from the table
 * (trace and the rows that would change shown, the rows grid still shows the old values); release, the
 * version and the run log on screen. Desktop and phone screenshots.
 */
import { expect, type Page, test } from '@playwright/test';
import { adminApi, DESKTOP, PHONE, pick, shot, signInWithToken } from './helpers.ts';

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

/** Adds a step of a type to the list named by its path key ('top' for the top level). */
async function addStep(page: Page, list: string, title: string) {
  await page.getByTestId(`add-step-${list}`).click();
  await page.locator('.ant-dropdown:visible').getByText(title, { exact: true }).click();
}

const panel = (page: Page) => page.getByTestId('step-panel');

test('a builder makes, test-runs and releases a program in the editor', async ({ page, request }) => {
  // Many steps through the real UI on a shared machine.
  test.setTimeout(300_000);
  const { call, p, entity } = await seed(request);
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
