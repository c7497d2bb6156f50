/**
 * Spreadsheet import and export in the workbench grid: a 1,000-row xlsx made with exceljs imported
 * through the dialog (progress, count), a file with row errors refused with the errors listed, then
 * the export downloaded and re-opened with exceljs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { ADMIN, adminApi, shot, signInUi } from './helpers.ts';

async function writeXlsx(file: string, header: string[], rows: unknown[][]): Promise<void> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Rows');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  await wb.xlsx.writeFile(file);
}

test('import 1,000 rows from xlsx, see the count, export and re-open the file', async ({ page, request }) => {
  test.setTimeout(240_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-xlsx-'));
  const call = await adminApi(request);
  const project = await call<{ _id: string }>('/api/common/project/create', { name: 'Spreadsheets' });
  const P = `/api/admin/project/${project._id}`;
  const kinds = await call<{ _id: string }>(`${P}/entity/create`, { name: 'Kinds', code: 'kinds' });
  await call(`${P}/kinds/field/create`, { name: 'Kind', type: 'string', field: 'kind' });
  for (const kind of ['Tool', 'Part']) await call(`/api/admin/data/${project._id}/kinds/save`, { kind });
  const goods = await call<{ _id: string }>(`${P}/entity/create`, { name: 'Goods', code: 'goods' });
  await call(`${P}/goods/field/create`, { name: 'Name', type: 'string', field: 'name' });
  await call(`${P}/goods/field/create`, { name: 'Price', type: 'number', field: 'price' });
  await call(`${P}/goods/field/create`, { name: 'Since', type: 'date', field: 'since' });
  await call(`${P}/goods/field/create`, { name: 'Kind', type: 'relate', field: 'kind', relate: kinds._id });

  const good = path.join(dir, 'goods.xlsx');
  await writeXlsx(
    good,
    ['Name', 'Price', 'Since', 'Kind'],
    Array.from({ length: 1000 }, (_, i) => [
      `Item ${i}`,
      i * 1.5,
      `2024-01-${String((i % 28) + 1).padStart(2, '0')}`,
      i % 2 ? 'Tool' : 'Part',
    ]),
  );
  const bad = path.join(dir, 'bad.xlsx');
  await writeXlsx(
    bad,
    ['Name', 'Price', 'Kind'],
    [
      ['ok', 1, 'Tool'],
      ['oops', 'abc', 'Tool'],
      ['who', 2, 'Nobody'],
    ],
  );

  await signInUi(page, ADMIN.user, ADMIN.pwd);
  await expect(page.getByTestId('project-list')).toBeVisible();
  await page.evaluate((id) => {
    localStorage.setItem('lc_project', id);
    localStorage.setItem('lc_mode', 'dev');
  }, project._id);
  await page.goto(`/dev/data/${goods._id}?tab=rows`);
  await expect(page.getByTestId('row-count')).toHaveText('Rows: 0');

  // A file with row errors: refused as a whole, each error listed.
  await page.getByTestId('xlsx-import').click();
  const dialog = page.locator('.ant-modal:visible');
  await dialog.locator('input[type=file]').setInputFiles(bad);
  await dialog.getByTestId('xlsx-import-start').click();
  const result = dialog.getByTestId('xlsx-result');
  await expect(result).toContainText('2 rows have errors; nothing was imported');
  await expect(result).toContainText('row 3-abc');
  await expect(result).toContainText('row 4-Nobody');
  await shot(page, 'xlsx-import-errors');

  // 1,000 good rows.
  await dialog.locator('input[type=file]').setInputFiles(good);
  await dialog.getByTestId('xlsx-import-start').click();
  await expect(result).toContainText('Imported 1000 rows');
  await shot(page, 'xlsx-import-done');
  await dialog.getByTestId('xlsx-import-close').click();
  await expect(page.locator('.ant-modal:visible')).toHaveCount(0);
  await expect(page.getByTestId('row-count')).toHaveText('Rows: 1000');
  await shot(page, 'xlsx-grid');

  // Export everything and read it back.
  await page.getByTestId('xlsx-export').click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: /^All/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^Goods-\d{8}-\d{4}\.xlsx$/);
  const saved = path.join(dir, 'export.xlsx');
  await download.saveAs(saved);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(saved);
  const ws = wb.worksheets[0]!;
  expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual(['Name', 'Price', 'Since', 'Kind']);
  expect(ws.rowCount).toBe(1001);
  const names = new Set<unknown>();
  ws.eachRow((row, n) => {
    if (n > 1) names.add(row.getCell(1).value);
  });
  expect(names.size).toBe(1000);
  expect(names.has('Item 999')).toBe(true);
  const row = ws.getRow(2);
  expect(typeof row.getCell(2).value).toBe('number');
  expect(row.getCell(1).value).toBe('Item 0');
  // Dates are written as Beijing wall-clock dates: the day the file said.
  expect(row.getCell(3).value).toEqual(new Date(Date.UTC(2024, 0, 1)));
  expect(['Tool', 'Part']).toContain(row.getCell(4).value);
  fs.rmSync(dir, { recursive: true, force: true });
});
