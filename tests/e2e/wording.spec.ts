/**
 * Words a first-day builder reads: a new button's caption follows the interface language (stored
 * pages keep theirs), the palette names its data group for what it holds, the toolbar says
 * "Distribute horizontally" instead of jargon; and every first load finds a favicon.
 */
import { expect, type Page, test } from '@playwright/test';
import { adminApi, DESKTOP, shot } from './helpers.ts';

async function openDesigner(page: Page, token: string, project: string, pageId: string, lang: string) {
  await page.addInitScript(
    ([t, p, l]) => {
      localStorage.setItem('token', t!);
      localStorage.setItem('lc_project', p!);
      localStorage.setItem('lc_mode', 'dev');
      localStorage.setItem('lang', l!);
    },
    [token, project, lang],
  );
  await page.goto(`/dev/design/${pageId}?project=${project}`);
  await expect(page.getByTestId('designer')).toBeVisible();
}

/** Drops a button from the palette onto the page grid; answers its canvas item. */
async function dropButton(page: Page, y: number) {
  const canvas = page.getByTestId('canvas');
  const before = await canvas.locator('.dz-item[data-kind="button"]').count();
  const tile = page.getByTestId('palette-button');
  await tile.scrollIntoViewIfNeeded();
  await tile.dragTo(canvas.locator('.dz-grid-d0').first(), { targetPosition: { x: 120, y } });
  await expect(canvas.locator('.dz-item[data-kind="button"]')).toHaveCount(before + 1);
  return canvas.locator('.dz-item[data-kind="button"]').nth(before);
}

test.use({ viewport: DESKTOP });

test('designer words: a new button says "Button" in English and 按钮 in Chinese; "Data" palette group; plain distribute labels', async ({
  browser,
  request,
}) => {
  const call = await adminApi(request);
  const projects = await call<{ _id: string; _name: string }[]>('/api/common/project/list');
  const project = projects.find((p) => p._name === 'Demo')!._id;
  const created = await call<{ _id: string }>(`/api/admin/page/${project}/create`, {
    name: `Wording ${Date.now().toString(36)}`,
  });

  const en = await browser.newPage();
  await openDesigner(en, call.token, project, created._id, 'en');
  const palette = en.getByTestId('palette');
  await expect(palette.getByText('Data', { exact: true })).toBeVisible();
  await expect(palette.getByText('Baima')).toHaveCount(0);
  await expect(en.getByTestId('distribute-h')).toHaveAccessibleName('Distribute horizontally');
  await expect(en.getByTestId('distribute-v')).toHaveAccessibleName('Distribute vertically');
  await expect(en.getByText('Dist. H')).toHaveCount(0);
  const first = await dropButton(en, 40);
  await expect(first.getByRole('button')).toHaveText('Button');
  await expect(en.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  await shot(en, 'wording-designer-en');
  await en.close();

  // A Chinese-speaking builder gets 按钮 for a new one; the English one stored before stays as it was.
  const zh = await browser.newPage();
  await openDesigner(zh, call.token, project, created._id, 'zh');
  await expect(zh.getByTestId('palette').getByText('数据', { exact: true })).toBeVisible();
  const second = await dropButton(zh, 200);
  await expect(second.getByRole('button')).toHaveText(/按\s?钮/);
  await expect(zh.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  await zh.close();

  const stored = await call<{ document: { widgets: { kind: string; props: { text?: string } }[] } }>(
    `/api/admin/page/${project}/${created._id}`,
  );
  expect(stored.document.widgets.filter((w) => w.kind === 'button').map((w) => w.props.text)).toEqual([
    'Button',
    '按钮',
  ]);
});

test('every first load finds a favicon: the page links one and /favicon.ico answers', async ({
  page,
  request,
}) => {
  const missing: string[] = [];
  page.on('response', (res) => {
    if (res.status() === 404) missing.push(res.url());
  });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  const icons = await page
    .locator('link[rel="icon"]')
    .evaluateAll((links) => links.map((l) => (l as HTMLLinkElement).getAttribute('href')));
  expect(icons).toEqual(['/favicon.ico', '/favicon.svg']);
  for (const href of ['/favicon.ico', '/favicon.svg']) {
    const res = await request.get(href);
    expect(res.status(), href).toBe(200);
  }
  const ico = await request.get('/favicon.ico');
  expect(ico.headers()['content-type']).toMatch(/icon/);
  // An ICO file: reserved 0, type 1.
  expect([...(await ico.body()).subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  const svg = await request.get('/favicon.svg');
  expect(svg.headers()['content-type']).toMatch(/^image\/svg\+xml/);
  expect(await svg.text()).toContain('<svg');
  expect(missing).toEqual([]);
});
