/**
 * The print screen (/app/{project}/print/{page}) and the display screen (/display/{id}) as users
 * open them: real rows from the demo tables, the print dialog opened once the rows are in, a display
 * inside the shell at desktop and phone sizes, and a page that is not a display refused with its code.
 */
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { DESKTOP, demoAsBuilder, PHONE, SCREENSHOTS, shot, signInWithToken } from './helpers.ts';

const printed = (page: Page) => page.evaluate(() => (window as unknown as { __printed: number[] }).__printed);

test('the print screen shows the page alone with its rows and opens the print dialog once, after the rows arrived', async ({
  page,
  request,
}) => {
  const c = await demoAsBuilder(request);
  await signInWithToken(page, c.token, c.project);
  // Record each print request with the table rows on screen at that moment.
  await page.addInitScript(() => {
    const w = window as unknown as { __printed: number[] };
    w.__printed = [];
    window.print = () =>
      void w.__printed.push(document.querySelectorAll('[data-wid="table"] tbody tr.ant-table-row').length);
  });
  await page.setViewportSize(DESKTOP);
  await page.goto(`/app/${c.project}/print/${c.list}`);
  const canvas = page.locator('.lc-app-page.lc-print .lc-page');
  await expect(canvas.getByText('客户一览 / Customers')).toBeVisible();
  await expect(canvas.locator('[data-wid="table"] tbody tr.ant-table-row')).toHaveCount(10);
  await expect(
    canvas.locator('[data-wid="table"]').getByRole('cell', { name: '张伟', exact: true }),
  ).toBeVisible();
  await expect(canvas.locator('[data-wid="chart"] canvas')).toBeVisible();
  // Printed once, and not before the table had its rows.
  await expect.poll(() => printed(page)).toEqual([10]);
  // Standalone: no shell around it.
  await expect(page.getByTestId('current-user')).toHaveCount(0);
  await expect(page.locator('.top-bar')).toHaveCount(0);

  await page.emulateMedia({ media: 'print' });
  await shot(page, 'print-page');
  const pdf = await page.pdf({ path: path.join(SCREENSHOTS, 'print-page.pdf'), format: 'A4' });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(await printed(page)).toEqual([10]);
});

test('a display opens in the shell with its rows, at desktop and phone sizes; a page that is not a display is refused', async ({
  page,
  request,
}) => {
  const c = await demoAsBuilder(request);
  const G = `/api/admin/page/${c.project}`;
  const display = await c.call<{ _id: string }>(`${G}/create`, {
    name: `Orders display ${Date.now().toString(36)}`,
    display: true,
    document: {
      id: 'orders',
      title: 'Orders display',
      version: 1,
      layout: {
        pc: { cols: 120, rowHeight: 10, width: 1200 },
        mobile: { cols: 38, rowHeight: 10, width: 375 },
      },
      widgets: [
        {
          id: 'title',
          kind: 'text',
          version: 1,
          props: { text: '订单看板 / Orders board', fontSize: 22, bold: true },
          layout: { pc: { x: 0, y: 0, w: 60, h: 5 }, mobile: { x: 0, y: 0, w: 38, h: 5 } },
        },
        {
          id: 'orders',
          kind: 'table',
          version: 1,
          props: { entity: 'order', pageSize: 5 },
          layout: { pc: { x: 0, y: 6, w: 120, h: 36 }, mobile: { x: 0, y: 6, w: 38, h: 50 } },
        },
      ],
    },
  });
  await c.call(`${G}/${display._id}/publish`, {});
  // Offered in the displays list of the project.
  const displays = await c.call<{ _id: string; display: boolean }[]>(`/api/app/dp/${c.project}/`);
  expect(displays.map((d) => d._id)).toContain(display._id);

  await signInWithToken(page, c.token, c.project);
  await page.setViewportSize(DESKTOP);
  await page.goto(`/display/${display._id}`);
  const canvas = page.locator('.lc-page-screen .lc-page');
  await expect(canvas.getByText('订单看板 / Orders board')).toBeVisible();
  const rows = canvas.locator('[data-wid="orders"] tbody tr.ant-table-row');
  await expect(rows).toHaveCount(5);
  await expect(canvas.getByRole('cell', { name: 'SO-1001', exact: true })).toBeVisible();
  await expect(canvas.getByRole('columnheader', { name: '单号 No.' })).toBeVisible();
  // Inside the signed-in shell.
  await expect(page.getByTestId('current-user').first()).toBeVisible();
  await shot(page, 'display-desktop');

  await page.setViewportSize(PHONE);
  await page.goto(`/display/${display._id}?mode=mobile`);
  await expect(canvas).toHaveAttribute('data-mode', 'mobile');
  await expect(rows.first()).toBeVisible();
  const box = await canvas.boundingBox();
  expect(box!.width).toBeLessThanOrEqual(PHONE.width);
  await shot(page, 'display-phone');

  // The demo list is a page, not a display: the display screen says so with the code.
  await page.setViewportSize(DESKTOP);
  await page.goto(`/display/${c.list}`);
  await expect(page.getByText('The page could not be opened')).toBeVisible();
  await expect(page.getByText(/^1603: /)).toBeVisible();
  await expect(page.locator('.lc-page')).toHaveCount(0);
  await shot(page, 'display-refused');
});
