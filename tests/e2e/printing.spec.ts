/**
 * Printing as users do it, with the PDF checked and not only the screen: a list view printed through
 * the A4 modal (sheets with repeated headers and page numbers, copies), a page's print button (a form
 * in 3 columns with the page's print option), a new-window print through a single-use key, a
 * multi-page server-mode PDF from sheet/print, and the desktop print client writing the PDF.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import WebSocket from 'ws';
import { startPrintClient } from '../../scripts/print-client.ts';
import { adminApi, DESKTOP, shot, signInWithToken } from './helpers.ts';
import { baseURL } from './playwright.config.ts';

test.use({ actionTimeout: 20_000 });

async function pdfText(pdf: Buffer | Uint8Array) {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { totalPages, text } = await extractText(doc, { mergePages: false });
  return { pages: totalPages, text: text as string[] };
}

const layout = {
  pc: { cols: 120, rowHeight: 10, width: 1200 },
  mobile: { cols: 38, rowHeight: 10, width: 375 },
};
const at = (y: number, h = 4) => ({ pc: { x: 0, y, w: 60, h }, mobile: { x: 0, y, w: 38, h } });

async function seed(request: Parameters<typeof adminApi>[0]) {
  const call = await adminApi(request);
  const suffix = Date.now().toString(36);
  const p = (await call<{ _id: string }>('/api/common/project/create', { name: `Print ${suffix}` }))._id;
  const code = `ord${suffix}`;
  const A = `/api/admin/project/${p}`;
  await call(`${A}/entity/create`, { name: 'Orders', code });
  await call(`${A}/${code}/field/create`, { name: 'Title', field: 'title', type: 'string' });
  await call(`${A}/${code}/field/create`, { name: 'Qty', field: 'qty', type: 'number' });
  for (let i = 1; i <= 60; i++)
    await call(`/api/admin/data/${p}/${code}/save`, { title: `Order ${i}`, qty: i });
  await call(`/api/admin/route/${p}/create`, { type: 'table', name: 'Order list', value: code });
  const G = `/api/admin/page/${p}`;
  const sheet = await call<{ _id: string }>(`${G}/create`, {
    name: `Order sheet ${suffix}`,
    document: {
      id: 'sheet',
      title: 'Order sheet',
      version: 1,
      layout,
      _option: { _pc: { print: { info: 'Printed from the order page', copies: 1 } } },
      state: {
        order: {
          type: 'object',
          default: { no: 'PO-7', customer: 'Acme Trading', amount: 120, city: 'Hangzhou', note: 'urgent' },
        },
      },
      widgets: [
        {
          id: 'go',
          kind: 'button',
          version: 1,
          props: { text: 'Print order' },
          layout: at(0),
          events: {
            onClick: [
              { type: 'print', title: 'Order PO-7', data: { $expr: 'state.order' }, columns: 3, copies: 2 },
            ],
          },
        },
      ],
    },
  });
  await call(`${G}/${sheet._id}/publish`, {});
  const designed = await call<{ _id: string }>(`${G}/create`, {
    name: `Orders print ${suffix}`,
    document: {
      id: 'designed',
      title: 'Orders print',
      version: 1,
      layout,
      widgets: [
        {
          id: 'pt',
          kind: 'print-table',
          version: 1,
          props: { title: 'Designed orders', entity: code },
          layout: at(0, 30),
        },
      ],
    },
  });
  await call(`${G}/${designed._id}/publish`, {});
  // A page whose button prints through the designed page: the template print modal.
  const withTemplate = await call<{ _id: string }>(`${G}/create`, {
    name: `Template print ${suffix}`,
    document: {
      id: 'tpl',
      title: 'Template print',
      version: 1,
      layout,
      widgets: [
        {
          id: 'tp',
          kind: 'button',
          version: 1,
          props: { text: 'Print with template' },
          layout: at(0),
          events: { onClick: [{ type: 'print', title: 'Orders', template: designed._id }] },
        },
      ],
    },
  });
  await call(`${G}/${withTemplate._id}/publish`, {});
  return {
    call,
    token: call.token,
    project: p,
    code,
    sheet: sheet._id,
    designed: designed._id,
    template: withTemplate._id,
  };
}

/** window.print records its calls and leaves the print layout on, so page.pdf() captures what would print. */
async function stubPrint(page: Page) {
  await page.context().addInitScript(() => {
    const w = window as unknown as { __printed: number };
    w.__printed = 0;
    window.print = () => {
      w.__printed++;
    };
  });
}
const printed = (page: Page) => page.evaluate(() => (window as unknown as { __printed: number }).__printed);
const afterPrint = (page: Page) => page.evaluate(() => window.dispatchEvent(new Event('afterprint')));

test('a list view of 60 rows prints through the A4 modal: sheets with repeated headers, page numbers and copies in the PDF; a record prints as a form', async ({
  page,
  request,
}) => {
  const s = await seed(request);
  await signInWithToken(page, s.token, s.project);
  await stubPrint(page);
  await page.setViewportSize(DESKTOP);
  await page.setViewportSize({ width: DESKTOP.width, height: 1400 });
  await page.goto(`/home/${s.code}`);
  // All 60 rows on one page of the list, then print them.
  await expect(async () => {
    await page.locator('.dv-pager .ant-pagination-options .ant-select').click({ timeout: 5000 });
    await page.locator('.ant-select-item-option[title="100 / page"]').click({ timeout: 5000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.locator('.dv-pager .ant-pagination-options')).toContainText('100 / page');
  await page.waitForLoadState('networkidle');
  const area = page.getByTestId('print-area');
  // (Opened again until the 60 rows are in: the bigger page may still be loading.)
  await expect(async () => {
    if ((await area.isVisible()) && (await area.locator('tbody tr').count()) !== 60)
      await page.keyboard.press('Escape');
    if (!(await area.isVisible())) await page.getByTestId('view-print').click({ timeout: 3000 });
    await expect(area.locator('tbody tr')).toHaveCount(60, { timeout: 3000 });
  }).toPass({ timeout: 30_000 });
  await expect
    .poll(() => area.evaluate((a) => a.closest('.ant-modal')?.getBoundingClientRect().width ?? 0))
    .toBeGreaterThan(780);
  // 25 rows a sheet: 3 sheets, each with the header row and its page number.
  await page.locator('[data-testid="print-rows"] input, input[data-testid="print-rows"]').first().fill('25');
  await expect(area.locator('section.lcp-sheet')).toHaveCount(3);
  await expect(area.locator('section.lcp-sheet thead')).toHaveCount(3);
  await expect(area.locator('.lcp-foot')).toHaveText(['Page 1 / 3', 'Page 2 / 3', 'Page 3 / 3']);
  await page
    .locator('[data-testid="print-copies"] input, input[data-testid="print-copies"]')
    .first()
    .fill('2');
  await shot(page, 'printing-list-modal');
  await page.getByTestId('print-now').click();
  await expect.poll(() => printed(page)).toBe(1);
  await page.emulateMedia({ media: 'print' });
  const pdf = await page.pdf({ format: 'A4' });
  const { pages, text } = await pdfText(pdf);
  // 2 copies × 3 sheets; each sheet repeats the header and names its page.
  expect(pages).toBe(6);
  text.forEach((t, i) => {
    expect(t).toContain('Title');
    expect(t).toContain('Qty');
    expect(t).toContain(`Page ${(i % 3) + 1} / 3`);
  });
  expect(text[0]).toContain('Order 1');
  expect(text.join('\n')).toContain('Order 60');
  await page.emulateMedia({ media: 'screen' });
  await afterPrint(page);
  // The choices are remembered for the next print.
  await page.locator('.ant-modal:visible .ant-modal-footer').getByRole('button', { name: 'Close' }).click();
  // (Clicked again until taken: the closing modal may still cover the button a moment.)
  await expect(async () => {
    await page.getByTestId('view-print').click({ timeout: 3000 });
    await expect(page.getByTestId('print-area').locator('section.lcp-sheet')).toHaveCount(3, {
      timeout: 3000,
    });
  }).toPass({ timeout: 30_000 });
  await page.locator('.ant-modal:visible .ant-modal-footer').getByRole('button', { name: 'Close' }).click();

  // One record, from its details, prints as a form (2 columns by default) of all its fields.
  await expect(async () => {
    await page.getByTestId('row-more').first().click({ timeout: 3000 });
    await page.getByRole('menuitem', { name: 'Details' }).click({ timeout: 3000 });
  }).toPass({ timeout: 30_000 });
  await page.getByTestId('detail-print').click();
  const form = page.getByTestId('print-area').locator('.lcp-form[data-columns="2"]');
  await expect(form).toBeVisible();
  await expect(form).toContainText('Title');
  await expect(form).toContainText(/Order \d+/);
  await page.getByTestId('print-now').click();
  await expect.poll(() => printed(page)).toBe(2);
  await page.emulateMedia({ media: 'print' });
  const one = await pdfText(await page.pdf({ format: 'A4' }));
  expect(one.text.join('\n')).toMatch(/Title[\s\S]*Order \d+/);
  expect(one.text.join('\n')).toContain('Qty');
  await page.emulateMedia({ media: 'screen' });
});

test('the template print modal (400 wide, no footer) exports the designed page as a PDF with page numbers', async ({
  page,
  request,
}) => {
  const s = await seed(request);
  await signInWithToken(page, s.token, s.project);
  await page.setViewportSize(DESKTOP);
  await page.goto(`/app/${s.project}/${s.template}`);
  await page.getByRole('button', { name: 'Print with template' }).click();
  const modal = page.getByRole('dialog', { name: 'Print template: Orders' });
  await expect(modal.getByTestId('print-template')).toBeVisible();
  await expect
    .poll(() =>
      modal.evaluate((m) => Math.round((m.closest('.ant-modal') ?? m).getBoundingClientRect().width)),
    )
    .toBe(400);
  await expect(modal.locator('.ant-modal-footer')).toHaveCount(0);
  await shot(page, 'printing-template-modal');
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 90_000 }),
    modal.getByTestId('print-template-pdf').click(),
  ]);
  expect(download.suggestedFilename()).toBe('Orders.pdf');
  const { pages, text } = await pdfText(fs.readFileSync(await download.path()));
  text.forEach((t, i) => {
    expect(t).toContain('Title'); // the table's header repeats on every sheet
    expect(t).toContain(`Page ${i + 1} / ${pages}`);
  });
  expect(text[0]).toContain('Designed orders');
  expect(text[0]).toContain('Order 1');
});

test("a page's print button prints a form in 3 columns with the page's print option; a new-window key prints once", async ({
  page,
  request,
}) => {
  const s = await seed(request);
  await signInWithToken(page, s.token, s.project);
  await stubPrint(page);
  await page.setViewportSize(DESKTOP);
  await page.goto(`/app/${s.project}/${s.sheet}`);
  await page.getByRole('button', { name: 'Print order' }).click();
  const area = page.getByTestId('print-area');
  await expect(area.locator('.lcp-form[data-columns="3"]')).toBeVisible();
  await expect(area).toContainText('Printed from the order page');
  await expect(area).toContainText('Acme Trading');
  await shot(page, 'printing-form-modal');
  await page.getByTestId('print-now').click();
  await expect.poll(() => printed(page)).toBe(1);
  await page.emulateMedia({ media: 'print' });
  const { pages, text } = await pdfText(await page.pdf({ format: 'A4' }));
  expect(pages).toBe(2); // copies: 2 from the action
  for (const t of text) {
    expect(t).toContain('Order PO-7');
    expect(t).toContain('Acme Trading');
    expect(t).toContain('Printed from the order page');
  }
  await page.emulateMedia({ media: 'screen' });
  await afterPrint(page);

  // A new window through a single-use key.
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('print-window').click()]);
  await expect(popup).toHaveURL(/\/print\/-\?key=/);
  await expect(popup.locator('html[data-print-ready="1"]')).toHaveCount(1);
  await expect(popup.locator('.lcp-form')).toHaveCount(2);
  await expect(popup.locator('.lcp-form').first()).toContainText('Hangzhou');
  await expect.poll(() => printed(popup)).toBe(1);
  // The key is gone once taken.
  await popup.reload();
  await expect(popup.getByText('This print could not be opened')).toBeVisible();
  await expect(popup.getByText(/2120/)).toBeVisible();
});

test('sheet/print joins print pages into one PDF (server mode); client mode answers keyed links', async ({
  request,
}) => {
  const s = await seed(request);
  const rows = Array.from({ length: 60 }, (_, i) => ({ title: `Line ${i + 1}`, qty: i + 1 }));
  const field = [
    { key: 'title', title: 'Title' },
    { key: 'qty', title: 'Qty' },
  ];
  const url = `/api/app/util/${s.project}/sheet/print`;
  const headers = { token: s.token };
  const alone = await request.post(url, { headers, data: { pages: [{ page: s.designed }] } });
  expect(alone.headers()['content-type']).toContain('application/pdf');
  const designed = await pdfText(await alone.body());
  expect(designed.text.join('\n')).toContain('Designed orders');
  expect(designed.text.join('\n')).toContain('Order 1');
  // A designed page numbers its own sheets.
  designed.text.forEach((t, i) => {
    expect(t).toContain(`Page ${i + 1} / ${designed.pages}`);
  });

  const res = await request.post(url, {
    headers,
    data: {
      pages: [
        { page: '', print: { title: 'Part A', data: rows, field, rows: 20 } },
        { page: s.designed },
        { page: '', print: { title: 'Part B', data: rows.slice(0, 30), field, rows: 15, copies: 1 } },
      ],
      option: { name: 'orders' },
    },
  });
  expect(res.headers()['content-type']).toContain('application/pdf');
  const all = await pdfText(await res.body());
  // 60 rows at 20 a sheet, the designed page, 30 rows at 15 a sheet.
  expect(all.pages).toBe(3 + designed.pages + 2);
  expect(all.text[0]).toContain('Part A');
  expect(all.text[2]).toContain('Page 3 / 3');
  expect(all.text[2]).toContain('Line 60');
  expect(all.text[3]).toContain('Designed orders');
  expect(all.text[3 + designed.pages]).toContain('Part B');
  fs.mkdirSync(path.join('test-results', 'screenshots'), { recursive: true });
  fs.writeFileSync(path.join('test-results', 'screenshots', 'printing-sheets.pdf'), await res.body());

  const client = await (
    await request.post(url, { headers, data: { pages: [{ page: s.designed }], option: { mode: 'client' } } })
  ).json();
  expect(client.error).toBe(0);
  expect(client.data.items[0].url).toMatch(new RegExp(`^/app/${s.project}/print/${s.designed}\\?key=`));
});

test('the desktop print client turns a printed view into a PDF file; other origins are refused; a closed client is reported', async ({
  page,
  request,
}) => {
  const s = await seed(request);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-print-client-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const client = await startPrintClient({ port, origins: [baseURL], dir, useLp: false, log: () => {} });
  try {
    // Another site's page cannot reach it.
    const refused = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { origin: 'http://evil.example' });
      ws.on('open', () => resolve('open'));
      ws.on('unexpected-response', (_q, r) => resolve(String(r.statusCode)));
      ws.on('error', () => resolve('error'));
    });
    expect(refused).not.toBe('open');

    await signInWithToken(page, s.token, s.project);
    await page.addInitScript(
      (p) => localStorage.setItem('lc_print_client', JSON.stringify({ enabled: true, port: p })),
      port,
    );
    await page.setViewportSize(DESKTOP);
    await page.goto(`/home/${s.code}`);
    await page.getByTestId('view-print').click();
    await page.getByTestId('print-client').click();
    await expect(page.getByText(/Sent to the print client/)).toBeVisible({ timeout: 60_000 });
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.pdf'));
    expect(files).toHaveLength(1);
    const { text } = await pdfText(fs.readFileSync(path.join(dir, files[0]!)));
    expect(text[0]).toContain('Order 1');
    expect(text[0]).toContain('Page 1 / 1');
  } finally {
    await client.close();
  }
  // The client is gone: the spec's alert asks to open it.
  await page.getByTestId('print-client').click();
  await expect(page.getByRole('dialog', { name: 'The print client is not running' })).toBeVisible();
  await shot(page, 'printing-client-unreachable');
  fs.rmSync(dir, { recursive: true, force: true });
});
