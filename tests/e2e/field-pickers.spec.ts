/**
 * The field editor's option-set and numbering-rule pickers as a builder uses them (#22): an option
 * field takes a set picked in the editor, a text field a numbering rule; saved, then two new rows get
 * the set's option and the numbers 1 and 2.
 */
import { expect, type Page, test } from '@playwright/test';
import { ADMIN, adminApi, pick, shot, signInUi } from './helpers.ts';

async function okModal(page: Page): Promise<void> {
  await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn-primary').last().click();
}

test.use({ actionTimeout: 20_000 });

test('a builder picks an option set and a numbering rule in the field editor; new rows use them', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const call = await adminApi(request);
  const name = `FP ${Date.now().toString(36)}`;
  await signInUi(page, ADMIN.user, ADMIN.pwd);
  await page.getByTestId('manage-mode').click();
  await expect(page).toHaveURL(/\/dev\/data$/);
  await page.getByTestId('new-project').click();
  await page.locator('#wb-create-project_name').fill(name);
  await okModal(page);
  // The modal closes before the created project is listed: wait for it.
  let project = '';
  await expect
    .poll(async () => {
      const projects = await call<{ _id: string; _name: string }[]>('/api/common/project/list');
      project = projects.find((p) => p._name === name)?._id ?? '';
      return project;
    })
    .not.toBe('');
  await call(`/api/app/share/${project}/selection/project/sizes`, {
    value: { name: 'Sizes', list: ['S', 'M', 'L'] },
  });
  await call(`/api/app/share/${project}/config/project/increment.no`, {
    value: { name: 'Ticket no.', prefix: 'T-', date: '', digits: 1, reset: 'never' },
  });

  await page.getByTestId('new-table').click();
  await page.locator('#entity-form_name').fill('Tickets');
  await page.locator('#entity-form_code').fill('tickets');
  await okModal(page);
  await expect(page.getByTestId('entity-screen').getByRole('heading')).toContainText('Tickets');

  // An option field whose options come from the set.
  await page.getByTestId('new-field').click();
  const form = page.getByTestId('field-form');
  await page.locator('#field-form_name').fill('Size');
  await pick(page, form.locator('#field-form_type'), 'Single option');
  await page.locator('#field-form_field').fill('size');
  await pick(page, form.getByTestId('field-selection'), 'Sizes');
  await shot(page, 'field-pickers-set');
  await okModal(page);
  await expect(page.locator('.ant-modal:visible')).toHaveCount(0);
  await expect(
    page.getByTestId('field-editor').getByRole('cell', { name: 'Size', exact: true }),
  ).toBeVisible();

  // A text field numbered by the rule.
  await page.getByTestId('new-field').click();
  await page.locator('#field-form_name').fill('No');
  await pick(page, form.locator('#field-form_type'), 'Text');
  await page.locator('#field-form_field').fill('no');
  await pick(page, form.getByTestId('field-increment'), 'Ticket no.');
  await shot(page, 'field-pickers-rule');
  await okModal(page);
  await expect(page.locator('.ant-modal:visible')).toHaveCount(0);

  // Two rows: the set's option picked, numbers T-1 and T-2 given on create.
  await page.getByRole('tab', { name: 'Rows' }).click();
  for (const size of ['M', 'L']) {
    await page.getByTestId('row-add').click();
    await pick(page, page.getByTestId('row-form').getByTestId('input-size'), size);
    await okModal(page);
    await expect(page.locator('.ant-modal:visible')).toHaveCount(0);
  }
  await expect(page.getByTestId('row-count')).toHaveText('Rows: 2');
  await expect(page.locator('.ant-table-row', { hasText: 'T-1' }).getByTestId('cell-size')).toContainText(
    'M',
  );
  await expect(page.locator('.ant-table-row', { hasText: 'T-2' }).getByTestId('cell-size')).toContainText(
    'L',
  );
  await shot(page, 'field-pickers-rows');
});
