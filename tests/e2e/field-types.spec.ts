/**
 * Field types in the workbench, as a builder uses them: a yes/no, a single option and an attachment
 * field added through the field editor; a row added with an image uploaded from disk (its preview
 * shown before saving, its thumbnail in the grid after); an out-of-list option in an imported sheet
 * refused with its message, nothing written; the uploaded image drawn by a table widget on a published page.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { grayPng } from '../../src/server/data/xlsx/images.ts';
import { ADMIN, adminApi, pick, shot, signInUi } from './helpers.ts';

async function okModal(page: Page): Promise<void> {
  await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn-primary').last().click();
}

async function addField(page: Page, name: string, type: string, key: string, options: string[] = []) {
  await page.getByTestId('new-field').click();
  const form = page.getByTestId('field-form');
  await page.locator('#field-form_name').fill(name);
  await pick(page, form.locator('#field-form_type'), type);
  await page.locator('#field-form_field').fill(key);
  for (const [i, o] of options.entries()) {
    const input = form.getByPlaceholder(`Option ${i + 1}`);
    if ((await input.count()) === 0) await form.getByTestId('option-add').click();
    await input.fill(o);
  }
  await okModal(page);
  await expect(page.locator('.ant-modal:visible')).toHaveCount(0);
  await expect(page.getByTestId('field-editor').getByRole('cell', { name, exact: true })).toBeVisible();
}

test.use({ actionTimeout: 20_000 });

test('builder adds yes/no, option and attachment fields; a row with an uploaded image', async ({ page }) => {
  test.setTimeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-ft-'));
  const photo = path.join(dir, 'photo.png');
  fs.writeFileSync(
    photo,
    grayPng(64, 48, (x, y) => (((x >> 3) + (y >> 3)) % 2 ? 40 : 220)),
  );
  const lying = path.join(dir, 'report.pdf');
  fs.writeFileSync(lying, 'this is not a PDF');
  const sheet = path.join(dir, 'tasks.xlsx');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Tasks');
  ws.addRow(['Title', 'Done', 'Stage']);
  ws.addRow(['Imported', 'yes', 'Later']);
  await wb.xlsx.writeFile(sheet);

  await signInUi(page, ADMIN.user, ADMIN.pwd);
  await page.getByTestId('manage-mode').click();
  await expect(page).toHaveURL(/\/dev\/data$/);
  await page.getByTestId('new-project').click();
  const projectName = `FT ${Date.now().toString(36)}`;
  await page.locator('#wb-create-project_name').fill(projectName);
  await okModal(page);
  await page.getByTestId('new-table').click();
  await page.locator('#entity-form_name').fill('Tasks');
  await page.locator('#entity-form_code').fill('tasks');
  await okModal(page);
  await expect(page.getByTestId('entity-screen').getByRole('heading')).toContainText('Tasks');

  await addField(page, 'Title', 'Text', 'title');
  await addField(page, 'Done', 'Yes/No', 'done');
  // An option field without options is refused in the form.
  await page.getByTestId('new-field').click();
  await page.locator('#field-form_name').fill('Empty');
  await pick(page, page.getByTestId('field-form').locator('#field-form_type'), 'Single option');
  await okModal(page);
  await expect(page.getByTestId('field-form')).toContainText('Add at least one option');
  await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn:not(.ant-btn-primary)').click();
  await addField(page, 'Stage', 'Single option', 'stage', ['Todo', 'Doing', 'Done']);
  await addField(page, 'Files', 'Attachment', 'files');
  await addField(page, 'Photo', 'Image', 'photo');
  await shot(page, 'field-types-fields');

  // A row: yes/no and option picked, an image uploaded with its preview shown before saving.
  await page.getByRole('tab', { name: 'Rows' }).click();
  await page.getByTestId('row-add').click();
  const form = page.getByTestId('row-form');
  await page.locator('#row-form_title').fill('First');
  await pick(page, form.getByTestId('input-done'), 'Yes');
  await pick(page, form.getByTestId('input-stage'), 'Doing');
  await form.getByTestId('input-photo').locator('input[type=file]').setInputFiles(photo);
  const preview = form.getByTestId('input-photo').locator('.lc-upload-item img');
  await expect(preview).toBeVisible();
  await expect(preview).toHaveAttribute('src', /\/upload\/project\/[0-9a-f]{24}\/main\/image\//);
  expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  // A file whose name lies about its content is refused with its message; the good one is kept.
  await form.getByTestId('input-files').locator('input[type=file]').setInputFiles(lying);
  // (Another notice, such as the field form's, may still be showing beside it.)
  await expect(
    page
      .locator('.ant-message, .ant-notification')
      .filter({ hasText: /does not match/ })
      .first(),
  ).toBeVisible();
  // The file's row keeps the reason after the notice has gone.
  await expect(form.getByTestId('input-files').locator('.lc-upload-reason')).toContainText(/does not match/);
  await shot(page, 'field-types-row-form');
  await okModal(page);
  await expect(page.locator('.ant-modal:visible')).toHaveCount(0);
  await expect(page.getByTestId('row-count')).toHaveText('Rows: 1');
  const row = page.locator('.ant-table-row', { hasText: 'First' });
  await expect(row.getByTestId('cell-done')).toContainText('Yes');
  await expect(row.getByTestId('cell-stage')).toContainText('Doing');
  await expect(row.getByTestId('cell-photo').locator('img')).toHaveAttribute('src', /\/upload\//);

  // An attachment added from the grid cell's dialog.
  await row.getByTestId('cell-files').click();
  const dialog = page.locator('.ant-modal:visible');
  await dialog.locator('input[type=file]').setInputFiles(photo);
  await expect(dialog.locator('.lc-upload-item[data-status=done]')).toContainText('photo.png');
  await okModal(page);
  await expect(row.getByTestId('cell-files')).toContainText('photo.png');

  // An imported sheet with an option outside the list: refused with its message, nothing written.
  await page.getByTestId('xlsx-import').click();
  const imp = page.locator('.ant-modal:visible');
  await imp.locator('input[type=file]').setInputFiles(sheet);
  await imp.getByTestId('xlsx-import-start').click();
  const result = imp.getByTestId('xlsx-result');
  await expect(result).toContainText('row 2-Later');
  await expect(result).toContainText("'Later' is not an option of Stage");
  await shot(page, 'field-types-import-refused');
  await imp.getByTestId('xlsx-import-close').click();
  await expect(page.getByTestId('row-count')).toHaveText('Rows: 1');
  await shot(page, 'field-types-grid');

  // The same image on a published page: a table widget over Tasks draws the uploaded thumbnail.
  const call = await adminApi(page.request);
  const projects = await call<{ _id: string; _name: string }[]>('/api/common/project/list');
  const pid = projects.find((p) => p._name === projectName)!._id;
  const entities = await call<{ _id: string; _code?: string; code?: string }[]>(
    `/api/admin/project/${pid}/entity`,
  );
  const tasks = entities.find((e) => (e._code ?? e.code) === 'tasks')!._id;
  const document = {
    id: 'draft',
    title: 'Task photos',
    version: 1,
    layout: {
      pc: { cols: 120, rowHeight: 10, width: 1200 },
      mobile: { cols: 38, rowHeight: 10, width: 375 },
    },
    widgets: [
      {
        id: 'photos',
        kind: 'table',
        version: 1,
        props: { entity: tasks, pageSize: 10 },
        layout: { pc: { x: 0, y: 0, w: 120, h: 60 }, mobile: { x: 0, y: 0, w: 38, h: 60 } },
      },
    ],
  };
  const created = await call<{ _id: string }>(`/api/admin/page/${pid}/create`, {
    name: 'Task photos',
    document,
  });
  await call(`/api/admin/page/${pid}/${created._id}/publish`, {});
  await page.goto(`/page/${created._id}`);
  const onPage = page.locator('.ant-table-row', { hasText: 'First' }).locator('img');
  await expect(onPage).toHaveAttribute('src', /\/upload\/project\/[0-9a-f]{24}\/main\/image\//);
  await expect.poll(() => onPage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await shot(page, 'field-types-image-on-page');
});
