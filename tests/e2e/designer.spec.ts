/**
 * The page designer as a builder uses it: open a new page, drag a widget of every category onto the
 * canvas and one into a container, edit properties, multi-select and align, copy/paste, undo back to
 * the start and redo, move a widget in mobile mode only, save, reload, publish, open the preview.
 */
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { getWidget } from '../../widgets/registry.ts';
import { emptyPage, instanceOf } from '../fixtures/pages.ts';
import { ADMIN, DESKTOP, shot, signInWithToken } from './helpers.ts';

interface Env {
  token: string;
  project: string;
}

async function api<T>(request: APIRequestContext, env: Env | null, url: string, data?: unknown): Promise<T> {
  const headers = env ? { token: env.token } : undefined;
  const res =
    data === undefined ? await request.get(url, { headers }) : await request.post(url, { headers, data });
  const body = (await res.json()) as { error: number; msg?: string; data: T };
  expect(body.error, `${url}: ${body.msg}`).toBe(0);
  return body.data;
}

async function setup(request: APIRequestContext): Promise<Env> {
  const login = await api<{ token: string }>(request, null, '/api/common/user/login', ADMIN);
  const env = { token: login.token, project: '' };
  const projects = await api<{ _id: string }[]>(request, env, '/api/common/project/list');
  env.project =
    projects[0]?._id ??
    (await api<{ _id: string }>(request, env, '/api/common/project/create', { name: 'Designer e2e' }))._id;
  return env;
}

async function newPage(request: APIRequestContext, env: Env, name: string): Promise<string> {
  const page = await api<{ _id: string }>(request, env, `/api/admin/page/${env.project}/create`, { name });
  return page._id;
}

async function openDesigner(page: Page, env: Env, pageId: string): Promise<void> {
  await signInWithToken(page, env.token, env.project, 'en', 'dev');
  await page.goto(`/dev/design/${pageId}?project=${env.project}`);
  await expect(page.getByTestId('designer')).toBeVisible();
  // These walks place and measure widgets in page pixels at 100 % (a page opens fitted to the width).
  await page.getByTestId('zoom-reset').click();
  await expect(canvas(page)).toHaveAttribute('data-zoom', '1');
}

const canvas = (page: Page) => page.getByTestId('canvas');
const items = (page: Page) => canvas(page).locator('.dz-item');

/** Drags a palette tile onto a grid at a point (relative to the grid element). */
async function dropKind(page: Page, kind: string, target: Locator, x: number, y: number): Promise<void> {
  const tile = page.getByTestId(`palette-${kind}`);
  await tile.scrollIntoViewIfNeeded();
  await tile.dragTo(target, { targetPosition: { x, y } });
}

/** Ids and grid positions of every widget on the canvas, in DOM order. */
async function snapshot(page: Page): Promise<string[]> {
  return items(page).evaluateAll((els) =>
    els.map(
      (e) =>
        `${(e as HTMLElement).dataset.wid}:${(e as HTMLElement).dataset.kind}@${(e as HTMLElement).style.transform}/${(e as HTMLElement).style.width}x${(e as HTMLElement).style.height}`,
    ),
  );
}

/** The inspector's number field of a layout coordinate. */
const coord = (page: Page, k: 'x' | 'y' | 'w' | 'h') =>
  page.locator(`input[data-testid="inspector-${k}"], [data-testid="inspector-${k}"] input`);

async function inspectorPos(page: Page): Promise<{ x: string; y: string }> {
  // The inspector follows a new selection one render later (hidden until then): wait for it.
  await expect(page.getByTestId('inspector')).not.toHaveAttribute('data-stale');
  await expect(coord(page, 'x')).toBeVisible();
  return { x: await coord(page, 'x').inputValue(), y: await coord(page, 'y').inputValue() };
}

async function pressUntilDisabled(page: Page, testId: string): Promise<number> {
  const button = page.getByTestId(testId);
  let n = 0;
  while (await button.isEnabled()) {
    await button.click();
    n++;
    expect(n).toBeLessThan(100);
  }
  return n;
}

/** Drags a canvas widget with the mouse (grabbed 10, 8 px into it) to a point of another element. */
async function dragWidget(page: Page, item: Locator, to: Locator, at: { x: number; y: number }) {
  await item.scrollIntoViewIfNeeded();
  const from = (await item.boundingBox())!;
  await page.mouse.move(from.x + 10, from.y + 8);
  await page.mouse.down();
  await page.mouse.move(from.x + 20, from.y + 16, { steps: 3 });
  const box = (await to.boundingBox())!;
  await page.mouse.move(box.x + at.x, box.y + at.y, { steps: 12 });
  await page.mouse.up();
}

const ONE_PER_CATEGORY = [
  'text',
  'table',
  'chart-pie',
  'textbox',
  'block',
  'print-table',
  'qrcode',
  'simple-table',
];

test.describe('designer', () => {
  test.use({ viewport: DESKTOP });

  test('drag, edit, align, copy/paste, undo/redo, mobile, save, publish, preview', async ({
    page,
    request,
    context,
  }) => {
    // A long walk through the whole screen: allow for a shared, slow machine.
    test.setTimeout(300_000);
    const env = await setup(request);
    const pageId = await newPage(request, env, 'Designer e2e');
    await openDesigner(page, env, pageId);
    await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
    const start = await snapshot(page);
    expect(start).toEqual([]);

    // One widget of every category onto the page grid; a button into the block container's own grid.
    const grid = canvas(page).locator('.dz-grid-d0').first();
    for (const [i, kind] of ONE_PER_CATEGORY.entries()) {
      await dropKind(page, kind, grid, 320, 20 + i * 10);
      await expect(canvas(page).locator(`.dz-item[data-kind="${kind}"]`)).toHaveCount(1);
      if (kind === 'block') {
        const nested = canvas(page).locator('.dz-item[data-kind="block"] .dz-nested .dz-grid');
        await dropKind(page, 'button', nested, 100, 20);
        await expect(nested.locator('.dz-item[data-kind="button"]')).toHaveCount(1);
      }
    }
    await expect(items(page)).toHaveCount(ONE_PER_CATEGORY.length + 1);
    await shot(page, 'designer-dropped');

    // Edit properties: the name and a prop in the generated panel, then the JSON editor (schema-checked).
    const text = canvas(page).locator('.dz-item[data-kind="text"]');
    await text.scrollIntoViewIfNeeded();
    await text.click();
    const panel = page.getByTestId('property-panel');
    await expect(panel).toHaveAttribute('data-kind', 'text');
    await panel.getByTestId('widget-name').fill('Greeting');
    await expect(text.locator('.dz-tag')).toHaveText('Greeting');
    await panel.getByTestId('prop-text').fill('Typed in the panel');
    await expect(text).toContainText('Typed in the panel');
    await shot(page, 'designer-property-panel');
    const json = page.getByTestId('props-json');
    const props = JSON.parse(await json.inputValue()) as Record<string, unknown>;
    await json.fill(JSON.stringify({ ...props, fontSize: 'huge' }));
    await page.getByTestId('props-json-apply').click();
    await expect(page.getByTestId('props-json-errors')).toBeVisible();
    await json.fill(JSON.stringify({ ...props, text: 'Hello designer', fontSize: 20 }));
    await page.getByTestId('props-json-apply').click();
    await expect(page.getByTestId('props-json-errors')).toHaveCount(0);
    await expect(text).toContainText('Hello designer');

    // Multi-select (click + shift-click) and align left.
    const qr = canvas(page).locator('.dz-item[data-kind="qrcode"]');
    const pie = canvas(page).locator('.dz-item[data-kind="chart-pie"]');
    await qr.click();
    await pie.click({ modifiers: ['Shift'] });
    await expect(page.getByTestId('inspector')).toContainText('2 widgets selected');
    await page.getByTestId('align-left').click();
    await pie.click();
    const pieX = (await inspectorPos(page)).x;
    await qr.click();
    expect((await inspectorPos(page)).x).toBe(pieX);
    await shot(page, 'designer-aligned');

    // Copy and paste the two (selected again with a box drawn from the empty canvas).
    await qr.click();
    await pie.click({ modifiers: ['Shift'] });
    await page.keyboard.press('Control+c');
    await page.keyboard.press('Control+v');
    await expect(canvas(page).locator('.dz-item[data-kind="qrcode"]')).toHaveCount(2);
    await expect(canvas(page).locator('.dz-item[data-kind="chart-pie"]')).toHaveCount(2);
    const full = await snapshot(page);

    // Undo everything back to the empty page, then redo all of it.
    const undos = await pressUntilDisabled(page, 'undo');
    expect(undos).toBeGreaterThan(10);
    await expect(items(page)).toHaveCount(0);
    expect(await snapshot(page)).toEqual(start);
    await pressUntilDisabled(page, 'redo');
    await expect(items(page)).toHaveCount(full.length);
    expect(await snapshot(page)).toEqual(full);

    // Mobile: move the text widget there; its desktop position stays.
    await text.click();
    const pcPos = await inspectorPos(page);
    await page.getByTestId('mode-switch').getByText('Mobile').click();
    await expect(canvas(page)).toHaveClass(/dz-mode-mobile/);
    await text.click();
    const mobileBefore = await inspectorPos(page);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await expect(coord(page, 'y')).toHaveValue(String(Number(mobileBefore.y) + 2));
    await expect(coord(page, 'x')).toHaveValue(String(Number(mobileBefore.x) + 1));
    await shot(page, 'designer-mobile');
    await page.getByTestId('mode-switch').getByText('Desktop').click();
    await text.click();
    expect(await inspectorPos(page)).toEqual(pcPos);

    // Saved by autosave; a reload shows the same page.
    await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
    const saved = await snapshot(page);
    await page.reload();
    await expect(page.getByTestId('designer')).toBeVisible();
    await expect(items(page)).toHaveCount(saved.length);
    expect(await snapshot(page)).toEqual(saved);
    await expect(canvas(page).locator('.dz-item[data-kind="text"]')).toContainText('Hello designer');
    await shot(page, 'designer-reloaded');

    // Publish with a note; the version list shows it.
    await page.getByTestId('publish').click();
    await page.getByTestId('publish-note').fill('first cut');
    await page.locator('.ant-modal:visible .ant-btn-primary').click();
    await expect(page.getByText('Published as version 1')).toBeVisible();
    const published = await snapshot(page);

    // A later edit, then the version list restores the published version into the draft.
    // The pasted copy sits below its original (pasted groups never cover what is there), far down the
    // page: scrolled to first, as a builder would (widgets far from view are not drawn).
    const copy = canvas(page).locator('.dz-item[data-kind="qrcode"]').last();
    await copy.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await copy.click();
    await page.keyboard.press('Delete');
    await expect(items(page)).toHaveCount(published.length - 1);
    await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
    await page.getByTestId('versions').click();
    await expect(page.getByTestId('version-1')).toContainText('first cut');
    await shot(page, 'designer-versions');
    await page.getByTestId('version-1').getByRole('button', { name: 'Restore' }).click();
    await expect(page.getByText('Version 1 restored to the draft')).toBeVisible();
    await expect(items(page)).toHaveCount(published.length);
    expect(await snapshot(page)).toEqual(published);

    // The preview opens for reviewers in a new tab.
    const [preview] = await Promise.all([
      context.waitForEvent('page'),
      page.getByTestId('preview-link').click(),
    ]);
    await preview.waitForLoadState();
    expect(preview.url()).toContain(`/dev/preview?page=${pageId}&project=${env.project}`);
  });

  test('layers, box select, keyboard commands and paste into another page', async ({ page, request }) => {
    const env = await setup(request);
    const first = await newPage(request, env, 'Designer layers');
    const second = await newPage(request, env, 'Designer paste target');
    await openDesigner(page, env, first);
    const grid = canvas(page).locator('.dz-grid-d0').first();
    await dropKind(page, 'text', grid, 120, 30);
    await dropKind(page, 'button', grid, 120, 120);
    await dropKind(page, 'qrcode', grid, 120, 220);
    await expect(items(page)).toHaveCount(3);

    // Box select from the empty right side of the page across all three.
    const box = (await canvas(page).boundingBox())!;
    await page.mouse.move(box.x + 600, box.y + 5);
    await page.mouse.down();
    await page.mouse.move(box.x + 300, box.y + 200, { steps: 5 });
    await page.mouse.move(box.x + 20, box.y + 400, { steps: 5 });
    await page.mouse.up();
    await expect(page.getByTestId('inspector')).toContainText('3 widgets selected');

    // Duplicate (Ctrl+D), delete (Delete), undo brings it back.
    await page.keyboard.press('Control+d');
    await expect(items(page)).toHaveCount(6);
    await page.keyboard.press('Delete');
    await expect(items(page)).toHaveCount(3);
    await page.keyboard.press('Control+z');
    await expect(items(page)).toHaveCount(6);
    await page.keyboard.press('Control+z');
    await expect(items(page)).toHaveCount(3);

    // Layers: rename, hide and lock from the outline; the help popover lists the shortcuts.
    await page.getByRole('tab', { name: 'Layers' }).click();
    const textId = await canvas(page).locator('.dz-item[data-kind="text"]').getAttribute('data-wid');
    const layer = page.getByTestId(`layer-${textId}`);
    await layer.locator('.dz-layer-title').dblclick();
    await page.getByTestId('layer-rename').fill('Heading');
    await page.getByTestId('layer-rename').press('Enter');
    await expect(layer).toContainText('Heading');
    await layer.getByRole('button', { name: 'Lock' }).click();
    await expect(canvas(page).locator(`.dz-item[data-wid="${textId}"]`)).toHaveClass(/static/);
    await layer.getByRole('button', { name: 'Hide' }).click();
    await expect(layer.getByRole('button', { name: 'Show' })).toBeVisible();
    await page.getByTestId('help').click();
    await expect(page.getByTestId('shortcut-help')).toContainText('Ctrl+D');
    await shot(page, 'designer-layers');
    await page.keyboard.press('Escape');

    // Copy two widgets here, paste them into the second page.
    await page.getByRole('tab', { name: 'Widgets' }).click();
    await canvas(page).locator('.dz-item[data-kind="button"]').click();
    await canvas(page)
      .locator('.dz-item[data-kind="qrcode"]')
      .click({ modifiers: ['Control'] });
    await page.keyboard.press('Control+c');
    await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
    await page.goto(`/dev/design/${second}?project=${env.project}`);
    await expect(page.getByTestId('designer')).toBeVisible();
    await expect(items(page)).toHaveCount(0);
    await page.keyboard.press('Control+v');
    await expect(items(page)).toHaveCount(2);
    await expect(canvas(page).locator('.dz-item[data-kind="qrcode"]')).toHaveCount(1);
    await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  });
  test('a long page: far widgets skip their drawing; a paste far below draws when scrolled near', async ({
    page,
    request,
  }) => {
    const env = await setup(request);
    // 60 texts in one column, 40 px each: 2,400 px of page in a canvas about 700 px high.
    const doc = emptyPage('long');
    doc.widgets = Array.from({ length: 60 }, (_, i) => {
      const w = instanceOf(getWidget('text')!, `t${i}`, i * 4);
      w.props.text = `Line ${i}`;
      return w;
    });
    const { _id: pageId } = await api<{ _id: string }>(
      request,
      env,
      `/api/admin/page/${env.project}/create`,
      {
        name: 'Designer long page',
        document: doc,
      },
    );
    await openDesigner(page, env, pageId);
    await expect(items(page)).toHaveCount(60);
    // Every view drawn (the fill-in), those far from view marked so the browser skips them.
    await expect(canvas(page).locator('.dz-deferred')).toHaveCount(0);
    await expect(canvas(page).locator('[data-wid="t0"]')).not.toHaveAttribute('data-far');
    await expect(canvas(page).locator('[data-wid="t59"]')).toHaveAttribute('data-far', '');
    // Picked in the layers tree, the last line is scrolled to and drawn.
    await page.getByRole('tab', { name: 'Layers' }).click();
    await page.getByTestId('layers').hover();
    await page.mouse.wheel(0, 3000);
    await page.getByTestId('layer-t59').click();
    await expect(canvas(page).locator('[data-wid="t59"]')).not.toHaveAttribute('data-far');
    await expect(canvas(page).locator('[data-wid="t59"]')).toBeInViewport();
    await expect(page.getByTestId('inspector')).toContainText('Line 59');
    await page.getByTestId('canvas-scroll').evaluate((el) => el.scrollTo(0, 0));
    await expect(canvas(page).locator('[data-wid="t0"]')).not.toHaveAttribute('data-far');

    // Copy the first line and paste: the copy goes below the column, far from view, as a placeholder.
    await canvas(page).locator('[data-wid="t0"]').click();
    await page.keyboard.press('Control+c');
    await page.keyboard.press('Control+v');
    await expect(items(page)).toHaveCount(61);
    const pasted = canvas(page).locator('.dz-item.dz-d0').last();
    await expect(pasted).toHaveAttribute('data-far', '');
    await expect(pasted.locator('.dz-deferred')).toHaveCount(1);
    await expect(page.getByTestId('inspector')).toContainText('Line 0');

    // Scrolled down to it: no longer far, its real view draws (the text), and the top is far now.
    await page.getByTestId('canvas-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(pasted).not.toHaveAttribute('data-far');
    await expect(pasted.locator('.dz-deferred')).toHaveCount(0);
    await expect(pasted).toContainText('Line 0');
    await expect(canvas(page).locator('[data-wid="t0"]')).toHaveAttribute('data-far', '');
    // Undo removes it; redo brings it back, selected, and drawn (it is in view).
    await page.keyboard.press('Control+z');
    await expect(items(page)).toHaveCount(60);
    await page.keyboard.press('Control+Shift+z');
    await expect(items(page)).toHaveCount(61);
    await expect(canvas(page).locator('.dz-item.dz-d0').last()).toContainText('Line 0');
    await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  });

  test('drag between the page and containers, zoom', async ({ page, request }) => {
    test.setTimeout(180_000);
    const env = await setup(request);
    const pageId = await newPage(request, env, 'Designer grids');
    await openDesigner(page, env, pageId);
    const grid = canvas(page).locator('.dz-grid-d0').first();
    await dropKind(page, 'block', grid, 220, 120);
    await dropKind(page, 'block', grid, 700, 120);
    await dropKind(page, 'text', grid, 150, 300);
    await expect(items(page)).toHaveCount(3);
    const [first, second] = [
      canvas(page).locator('.dz-item[data-kind="block"]').first(),
      canvas(page).locator('.dz-item[data-kind="block"]').last(),
    ];
    const text = canvas(page).locator('.dz-item[data-kind="text"]');
    const topLevel = canvas(page).locator('.dz-d0');
    const inFirst = first.locator('.dz-nested .dz-item[data-kind="text"]');
    const inSecond = second.locator('.dz-nested .dz-item[data-kind="text"]');

    // Page → container: the widget lands in the container's grid where it was dropped.
    await dragWidget(page, text, first.locator('.dz-nested'), { x: 60, y: 20 });
    await expect(inFirst).toHaveCount(1);
    await expect(topLevel).toHaveCount(2);
    const nestedBox = (await first.locator('.dz-nested').boundingBox())!;
    const landed = (await inFirst.boundingBox())!;
    // Grabbed 10, 8 px into it: its corner sits at (50, 12) in the container's grid, snapped to a cell.
    expect(Math.abs(landed.x - nestedBox.x - 50)).toBeLessThan(nestedBox.width / 120 + 1);
    expect(Math.abs(landed.y - nestedBox.y - 12)).toBeLessThanOrEqual(6);
    await shot(page, 'designer-into-container');

    // One undo step takes it back out, redo puts it in again.
    await page.keyboard.press('Control+z');
    await expect(inFirst).toHaveCount(0);
    await expect(topLevel).toHaveCount(3);
    await page.keyboard.press('Control+Shift+z');
    await expect(inFirst).toHaveCount(1);

    // Container → container, then container → page.
    await dragWidget(page, inFirst, second.locator('.dz-nested'), { x: 40, y: 20 });
    await expect(inSecond).toHaveCount(1);
    await expect(inFirst).toHaveCount(0);
    await dragWidget(page, inSecond, grid, { x: 500, y: 320 });
    await expect(topLevel).toHaveCount(3);
    await expect(inSecond).toHaveCount(0);
    await page.keyboard.press('Control+z');
    await expect(inSecond).toHaveCount(1);
    await page.keyboard.press('Control+Shift+z');
    await expect(topLevel).toHaveCount(3);

    // Zoom: the toolbar and the shortcuts (listed in the help) scale the canvas.
    await page.getByTestId('zoom-out').click();
    await page.getByTestId('zoom-out').click();
    await expect(page.getByTestId('zoom-reset')).toHaveText('75%');
    await expect(canvas(page)).toHaveAttribute('data-zoom', '0.75');
    const full = (await grid.boundingBox())!;
    expect(Math.round(full.width)).toBe(900);

    // A press selects at once, before the button comes up, and lifts nothing until the pointer moves.
    const sb = (await second.boundingBox())!;
    await page.mouse.move(sb.x + 6, sb.y + 4);
    await page.mouse.down();
    await expect(second.locator(':scope > .dz-chrome')).toHaveCount(1);
    await expect(second).not.toHaveAttribute('data-moving');
    await page.mouse.up();

    // A drag at 75 % moves by the pointer's distance in page pixels: 90, 45 screen px = 12 columns, 6 rows.
    await text.click();
    const before = await inspectorPos(page);
    const b = (await text.boundingBox())!;
    await page.mouse.move(b.x + 10, b.y + 8);
    await page.mouse.down();
    await page.mouse.move(b.x + 40, b.y + 23, { steps: 4 });
    await expect(text).toHaveAttribute('data-moving', '');
    await page.mouse.move(b.x + 100, b.y + 53, { steps: 8 });
    await page.mouse.up();
    await expect(text).not.toHaveAttribute('data-moving');
    await expect(coord(page, 'x')).toHaveValue(String(Number(before.x) + 12));
    await expect(coord(page, 'y')).toHaveValue(String(Number(before.y) + 6));

    // A palette drop at 75 % lands under the pointer (a free spot, left of the text, below the block).
    await dropKind(page, 'qrcode', grid, 120, 300);
    const qr = (await canvas(page).locator('.dz-item[data-kind="qrcode"]').boundingBox())!;
    const g = (await grid.boundingBox())!;
    expect(qr.x).toBeLessThan(g.x + 120);
    expect(qr.x + qr.width).toBeGreaterThan(g.x + 120);
    expect(qr.y).toBeLessThan(g.y + 300);
    expect(qr.y + qr.height).toBeGreaterThan(g.y + 300);
    await shot(page, 'designer-zoomed');

    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+=');
    await expect(page.getByTestId('zoom-reset')).toHaveText('90%');
    await page.keyboard.press('Control+0');
    await expect(page.getByTestId('zoom-reset')).toHaveText('100%');
    await page.keyboard.press('Control+-');
    await expect(page.getByTestId('zoom-reset')).toHaveText('90%');
    await page.getByTestId('zoom-reset').click();
    await expect(canvas(page)).toHaveAttribute('data-zoom', '1');
    await page.getByTestId('help').click();
    await expect(page.getByTestId('shortcut-help')).toContainText('Ctrl+-');
    await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  });
});
