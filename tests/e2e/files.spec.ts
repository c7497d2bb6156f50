/**
 * Files and links as users meet them: a record with two uploaded files downloads both as one zip from
 * its table cell, and the list's "Copy link" makes a short link that leads back to the list.
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { unzipSync } from 'fflate';
import { grayPng } from '../../src/server/data/xlsx/images.ts';
import { adminApi, DESKTOP, shot, signInWithToken } from './helpers.ts';

test.use({ actionTimeout: 20_000 });

test('two uploaded files download as one zip; the list link is shortened and followed', async ({
  page,
  request,
}) => {
  const call = await adminApi(request);
  const suffix = Date.now().toString(36);
  const p = (await call<{ _id: string }>('/api/common/project/create', { name: `Files ${suffix}` }))._id;
  const code = `doc${suffix}`;
  const A = `/api/admin/project/${p}`;
  const entity = (await call<{ _id: string }>(`${A}/entity/create`, { name: 'Documents', code }))._id;
  await call(`${A}/${code}/field/create`, { name: 'Title', field: 'title', type: 'string' });
  await call(`${A}/${code}/field/create`, { name: 'Files', field: 'files', type: 'attachment' });
  const up = async (name: string, body: Buffer) => {
    const res = await request.post(`/api/app/util/${p}/upload?type=file&name=${name}`, {
      headers: { token: call.token, 'content-type': 'application/octet-stream' },
      data: body,
    });
    const a = (await res.json()) as { error: number; data: { url: string; size: number } };
    expect(a.error).toBe(0);
    return { url: a.data.url, name, size: a.data.size };
  };
  const png = grayPng(5, 5, () => 77);
  const files = [await up('notes.txt', Buffer.from('meeting notes')), await up('chart.png', png)];
  await call(`/api/admin/data/${p}/${code}/save`, { title: 'Quarterly', files });
  await call(`/api/admin/route/${p}/create`, { type: 'table', name: 'Documents', value: code });

  await signInWithToken(page, call.token, p);
  await page.setViewportSize(DESKTOP);
  // The builder's rows grid shows the files as links, with one zip of them all.
  await page.goto(`/dev/data/${entity}`);
  await page.getByRole('tab', { name: 'Rows' }).click();
  const cell = page.locator('.ant-table-row', { hasText: 'Quarterly' }).getByTestId('cell-files');
  await expect(cell).toContainText('notes.txt');
  await expect(cell).toContainText('chart.png');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    cell.getByTestId('files-zip').click(),
  ]);
  expect(download.suggestedFilename()).toBe('files.zip');
  const zip = unzipSync(new Uint8Array(fs.readFileSync(await download.path())));
  expect(Object.keys(zip).sort()).toEqual(['chart.png', 'notes.txt']);
  expect(Buffer.from(zip['notes.txt']!).toString()).toBe('meeting notes');
  expect(Buffer.from(zip['chart.png']!).equals(png)).toBe(true);

  // Copy link on the end user's list: a short link of this list, which leads back to it.
  await page.goto(`/home/${code}`);
  await expect(page.getByTestId('data-view')).toContainText('Quarterly');
  await page.getByTestId('view-share').click();
  const notice = page.locator('.ant-message-notice').filter({ hasText: '/s/' }).first();
  await expect(notice).toBeVisible();
  await shot(page, 'files-short-link');
  const link = /(https?:\/\/\S+\/s\/[A-Za-z0-9_-]+)/.exec((await notice.textContent()) ?? '')?.[1];
  expect(link).toBeTruthy();
  await page.goto('about:blank');
  await page.goto(link!);
  await expect(page).toHaveURL(new RegExp(`/home/${code}`));
  await expect(page.getByTestId('data-view')).toContainText('chart.png');
});
