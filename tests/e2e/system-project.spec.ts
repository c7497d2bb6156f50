/**
 * /system/project as a builder uses it: the usage figures, exporting the demo system to a file, and
 * importing that file into a new empty system — whose menu then opens the imported page with the
 * imported customers — once beside its content and once replacing it (confirmed; nothing doubles).
 */
import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { adminApi, DESKTOP, demoProject, PHONE, shot, signInWithToken } from './helpers.ts';

test.describe.configure({ mode: 'serial' });

async function usage(page: Page, key: string): Promise<number> {
  const text = (await page.getByTestId(`usage-${key}`).textContent()) ?? '';
  return Number(text.replace(/[^0-9]/g, ''));
}

test('a builder exports a system and imports it into another, beside and then in place of its content', async ({
  page,
  request,
}, info) => {
  test.setTimeout(240_000);
  const call = await adminApi(request);
  const { project: demo } = await demoProject(call);
  await signInWithToken(page, call.token, demo);
  await page.setViewportSize(DESKTOP);
  await page.goto('/system/project');
  await expect(page.getByTestId('system-project')).toBeVisible();
  await expect(page.getByTestId('usage-entities')).toBeVisible();
  const tables = await usage(page, 'entities');
  expect(tables).toBeGreaterThanOrEqual(2);
  expect(await usage(page, 'records')).toBeGreaterThanOrEqual(42);

  // Export with records: a JSON file holding the tables and the sample customers.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export system' }).click(),
  ]);
  const file = info.outputPath('system.json');
  await download.saveAs(file);
  expect(download.suggestedFilename()).toMatch(/^Demo-\d{4}-\d{2}-\d{2}\.json$/);
  const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    entities: { id: string; code: string }[];
    fields: { id: string; entity_id: string; code: string }[];
    records: Record<string, { rows: Record<string, unknown>[] }>;
  };
  const customer = pkg.entities.find((e) => e.code === 'customer')!;
  const nameField = pkg.fields.find((f) => f.entity_id === customer.id && f.code === 'name')!;
  const someone = pkg.records[customer.id]!.rows[0]![nameField.id] as string;
  expect(someone).toBeTruthy();

  // A new, empty system takes the file.
  const suffix = Date.now().toString(36);
  const copy = (await call<{ _id: string }>('/api/common/project/create', { name: `Copy ${suffix}` }))._id;
  // Runs after the sign-in script on every load: the new system becomes the current one.
  await page.addInitScript((p) => localStorage.setItem('lc_project', p), copy);
  await page.goto('/system/project');
  await expect(page.getByTestId('shell-title')).toHaveText(`Copy ${suffix}`);
  await expect(page.getByTestId('usage-entities')).toHaveText('0');
  await page.getByTestId('import-file').setInputFiles(file);
  await expect(page.getByText(/^Imported: \d+ tables/)).toBeVisible();
  await expect(page.getByTestId('usage-entities')).toHaveText(String(tables));
  await shot(page, 'system-project-desktop');

  // Its menu opens the imported list page with the imported customers.
  await page.goto('/');
  await page.getByText('客户一览 / Customers').first().click();
  await expect(page.getByText(someone).first()).toBeVisible();

  // Replacing with the same file: confirmed, and nothing doubles.
  await page.goto('/system/project');
  await page.getByText('Replace this system').click();
  await page.getByTestId('import-file').setInputFiles(file);
  const confirm = page.locator('.ant-modal-confirm');
  await expect(confirm.locator('.ant-modal-confirm-title')).toHaveText(
    `Replace "Copy ${suffix}" with this file?`,
  );
  await confirm.getByRole('button', { name: 'Replace this system' }).click();
  await expect(page.getByText(/^Imported: \d+ tables/).last()).toBeVisible();
  await expect(page.getByTestId('usage-entities')).toHaveText(String(tables));

  // A file that is not an export is refused with its notice; nothing changes.
  const junk = info.outputPath('junk.json');
  fs.writeFileSync(junk, JSON.stringify({ hello: 'world' }));
  await page.getByText('Add to this system').click();
  await page.getByTestId('import-file').setInputFiles(junk);
  await expect(page.getByText(/project package format not supported|system file/i).first()).toBeVisible();
  await expect(page.getByTestId('usage-entities')).toHaveText(String(tables));

  await page.setViewportSize(PHONE);
  await shot(page, 'system-project-phone');
});
