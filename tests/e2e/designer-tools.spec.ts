/**
 * What a builder sees of the designer's tools (issue #17, item 13): the property panel follows undo,
 * redo and co-editors; the canvas fits the page's width; the layers tree scrolls to nested widgets;
 * delete and duplicate have buttons and a context menu; a bound table shows its columns and rows.
 */
import { expect, test } from '@playwright/test';
import { getWidget } from '../../widgets/registry.ts';
import { emptyPage, instanceOf } from '../fixtures/pages.ts';
import { api, canvas, items, newPage, openDesigner, setup, signIn } from './designer-kit.ts';
import { DESKTOP, shot } from './helpers.ts';

test.use({ viewport: DESKTOP });

test('the property panel follows toolbar undo and redo, and a co-editor', async ({
  page,
  request,
  browser,
}) => {
  const env = await setup(request);
  const doc = emptyPage('follow');
  const t = instanceOf(getWidget('text')!, 'hello');
  t.props.text = 'Hello';
  doc.widgets = [t];
  const pageId = await newPage(request, env, 'Designer panel follows', doc);
  await openDesigner(page, env, pageId);
  const text = canvas(page).locator('[data-wid="hello"]');
  await text.click();
  const field = page.getByTestId('property-panel').getByTestId('prop-text');
  await expect(field).toHaveValue('Hello');
  await field.fill('Typed in the panel');
  await expect(text).toContainText('Typed in the panel');

  // Toolbar undo: the canvas and the panel both show the text from before.
  await page.getByTestId('undo').click();
  await expect(text).toContainText('Hello');
  await expect(field).toHaveValue('Hello');
  await page.getByTestId('redo').click();
  await expect(text).toContainText('Typed in the panel');
  await expect(field).toHaveValue('Typed in the panel');
  await page.getByTestId('undo').click();
  await expect(field).toHaveValue('Hello');

  // A refused edit (with its error) stays on screen while another prop changes by undo.
  const panel = page.getByTestId('property-panel');
  await panel.locator('[data-prop="prop-fontSize"] input').fill('500');
  await expect(panel.locator('[data-prop="prop-fontSize"] .panel-error')).toBeVisible();
  await field.fill('Second edit');
  await expect(text).toContainText('Second edit');
  await page.getByTestId('undo').click();
  await expect(field).toHaveValue('Hello');
  await expect(panel.locator('[data-prop="prop-fontSize"] input')).toHaveValue('500');
  await expect(panel.locator('[data-prop="prop-fontSize"] .panel-error')).toBeVisible();
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');

  // A co-editor changes the text: the panel here shows it without picking the widget again.
  const other = await browser.newContext({ viewport: DESKTOP });
  const them = await other.newPage();
  await openDesigner(them, env, pageId);
  await canvas(them).locator('[data-wid="hello"]').click();
  await them.getByTestId('property-panel').getByTestId('prop-text').fill('From a co-editor');
  await expect(text).toContainText('From a co-editor');
  await expect(field).toHaveValue('From a co-editor');
  await other.close();
});

test('the canvas opens fitted to the page width and follows the window while on fit', async ({
  page,
  request,
}) => {
  const env = await setup(request);
  const pageId = await newPage(request, env, 'Designer fit');
  await openDesigner(page, env, pageId);
  const scroll = page.getByTestId('canvas-scroll');
  /** How much of the page's width the canvas area shows (1 = all of it). */
  const shown = async () => {
    const box = (await canvas(page).boundingBox())!;
    const area = await scroll.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, right: r.left + el.clientWidth };
    });
    return (Math.min(box.x + box.width, area.right) - Math.max(box.x, area.left)) / box.width;
  };
  await expect(page.getByTestId('zoom-fit')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => Number(await canvas(page).getAttribute('data-zoom'))).toBeLessThan(1);
  expect(await shown()).toBe(1);
  const fitted = Number(await canvas(page).getAttribute('data-zoom'));

  // A wider window: the zoom grows with it (never above 100 %).
  await page.setViewportSize({ width: 1600, height: 800 });
  await expect.poll(async () => Number(await canvas(page).getAttribute('data-zoom'))).toBeGreaterThan(fitted);
  expect(await shown()).toBe(1);
  await page.setViewportSize({ width: 2000, height: 800 });
  await expect(canvas(page)).toHaveAttribute('data-zoom', '1');

  // 100 % (the value button, or Ctrl+0) holds when the window resizes; Shift+1 fits again.
  await page.setViewportSize(DESKTOP);
  await expect(canvas(page)).toHaveAttribute('data-zoom', String(fitted));
  await page.getByTestId('zoom-reset').click();
  await expect(canvas(page)).toHaveAttribute('data-zoom', '1');
  await expect(page.getByTestId('zoom-fit')).toHaveAttribute('aria-pressed', 'false');
  await page.setViewportSize({ width: 1400, height: 800 });
  await page.setViewportSize(DESKTOP);
  await expect(canvas(page)).toHaveAttribute('data-zoom', '1');
  expect(await shown()).toBeLessThan(1);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Shift+Digit1');
  await expect(canvas(page)).toHaveAttribute('data-zoom', String(fitted));
  await page.keyboard.press('Control+0');
  await expect(canvas(page)).toHaveAttribute('data-zoom', '1');
  await page.getByTestId('zoom-fit').click();
  await expect(canvas(page)).toHaveAttribute('data-zoom', String(fitted));
  // The toolbar holds one row at 1280 px, and the fit tooltip still open above cannot swallow a click.
  const [fit, help] = [
    await page.getByTestId('zoom-fit').boundingBox(),
    await page.getByTestId('help').boundingBox(),
  ];
  expect(Math.abs(fit!.y - help!.y)).toBeLessThan(4);
  await page.getByTestId('help').click();
  await expect(page.getByTestId('shortcut-help')).toContainText('Shift+1');
  await expect(page.getByTestId('shortcut-help')).toContainText('Ctrl+0');
});

test('a widget picked in the layers tree inside a container far down the page is scrolled to', async ({
  page,
  request,
}) => {
  const env = await setup(request);
  // 150 lines (6,000 px of page), then a block holding a text and a block holding another text.
  const doc = emptyPage('deep');
  const text = getWidget('text')!;
  const block = getWidget('block')!;
  const lines = Array.from({ length: 150 }, (_, i) => {
    const w = instanceOf(text, `t${i}`, i * 4);
    w.props.text = `Line ${i}`;
    return w;
  });
  const outer = instanceOf(block, 'outer', 600);
  outer.layout.pc = { x: 0, y: 600, w: 60, h: 60 };
  const inner = instanceOf(block, 'inner', 20);
  inner.layout.pc = { x: 0, y: 20, w: 50, h: 30 };
  const deep = instanceOf(text, 'deep', 10);
  deep.props.text = 'Deep inside';
  inner.children = [deep];
  const nested = instanceOf(text, 'nested', 2);
  nested.props.text = 'Nested line';
  outer.children = [nested, inner];
  doc.widgets = [...lines, outer];
  const pageId = await newPage(request, env, 'Designer nested layers', doc);
  await openDesigner(page, env, pageId);
  await expect(canvas(page).locator('[data-wid="outer"]')).toHaveAttribute('data-far', '');

  await page.getByRole('tab', { name: 'Layers' }).click();
  await page.getByTestId('layers').hover();
  await page.mouse.wheel(0, 10_000);
  await page.getByTestId('layer-nested').click();
  await expect(canvas(page).locator('[data-wid="outer"]')).not.toHaveAttribute('data-far');
  await expect(canvas(page).locator('[data-wid="nested"]')).toBeInViewport();
  await expect(page.getByTestId('inspector')).toContainText('Nested line');

  // Back to the top, then two levels down.
  await page.getByTestId('canvas-scroll').evaluate((el) => el.scrollTo(0, 0));
  await expect(canvas(page).locator('[data-wid="outer"]')).toHaveAttribute('data-far', '');
  await page.getByTestId('layer-deep').click();
  await expect(canvas(page).locator('[data-wid="deep"]')).toBeInViewport();
  await expect(canvas(page).locator('[data-wid="deep"]')).toContainText('Deep inside');
});

test('delete and duplicate from the toolbar and the context menu, each one undo step', async ({
  page,
  request,
}) => {
  const env = await setup(request);
  const doc = emptyPage('menu');
  const text = getWidget('text')!;
  doc.widgets = ['a', 'b', 'c'].map((id, i) => {
    const w = instanceOf(text, id, i * 6);
    w.props.text = `Text ${id}`;
    return w;
  });
  const pageId = await newPage(request, env, 'Designer menu', doc);
  await openDesigner(page, env, pageId);
  const top = () =>
    canvas(page)
      .locator('.dz-d0')
      .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.wid));
  const at = (id: string) => canvas(page).locator(`[data-wid="${id}"]`);
  const tool = (id: string) => page.getByTestId(id);

  // Toolbar: enabled with a selection; each press is one step of undo and redo.
  await expect(tool('duplicate')).toBeDisabled();
  await expect(tool('delete')).toBeDisabled();
  await at('a').click();
  await expect(tool('duplicate')).toBeEnabled();
  await tool('duplicate').click();
  await expect(items(page)).toHaveCount(4);
  await tool('undo').click();
  await expect(items(page)).toHaveCount(3);
  await tool('redo').click();
  await expect(items(page)).toHaveCount(4);
  await tool('delete').click();
  await expect(items(page)).toHaveCount(3);
  await expect(tool('delete')).toBeDisabled();
  await tool('undo').click();
  await expect(items(page)).toHaveCount(4);
  await tool('undo').click();
  await expect(items(page)).toHaveCount(3);
  expect(await top()).toEqual(['a', 'b', 'c']);

  // Context menu on a widget: it is selected, and the menu acts on it.
  const menu = page.getByTestId('canvas-menu');
  await at('b').click({ button: 'right' });
  await expect(menu).toBeVisible();
  await expect(page.getByTestId('property-panel')).toContainText('Text b');
  await shot(page, 'designer-context-menu');
  await menu.getByTestId('menu-duplicate').click();
  await expect(menu).toHaveCount(0);
  await expect(items(page)).toHaveCount(4);
  await page.keyboard.press('Control+z');
  await expect(items(page)).toHaveCount(3);

  await at('a').click({ button: 'right' });
  await menu.getByTestId('menu-forward').click();
  await expect.poll(top).toEqual(['b', 'a', 'c']);
  await tool('undo').click();
  await expect.poll(top).toEqual(['a', 'b', 'c']);
  await tool('redo').click();
  await expect.poll(top).toEqual(['b', 'a', 'c']);
  await at('a').click({ button: 'right' });
  await menu.getByTestId('menu-backward').click();
  await expect.poll(top).toEqual(['a', 'b', 'c']);

  // Copy from the menu, paste from the menu on the empty page (the only action offered there).
  await at('c').click({ button: 'right' });
  await menu.getByTestId('menu-copy').click();
  const pageBox = (await canvas(page).boundingBox())!;
  await page.mouse.click(pageBox.x + pageBox.width - 20, pageBox.y + 20, { button: 'right' });
  await expect(menu.getByRole('menuitem')).toHaveCount(1);
  await menu.getByTestId('menu-paste').click();
  await expect(items(page)).toHaveCount(4);
  await tool('undo').click();
  await expect(items(page)).toHaveCount(3);

  // Delete from the menu; Escape closes the menu without doing anything.
  await at('c').click({ button: 'right' });
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(items(page)).toHaveCount(3);
  await at('c').click({ button: 'right' });
  await menu.getByTestId('menu-delete').click();
  await expect(items(page)).toHaveCount(2);
  await tool('undo').click();
  await expect(items(page)).toHaveCount(3);
  await tool('redo').click();
  await expect(items(page)).toHaveCount(2);
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
});

test('the workbench Preview opens a page picker, and a picked page opens in the preview', async ({
  page,
  context,
  request,
}) => {
  const env = await setup(request);
  const doc = emptyPage('preview');
  const t = instanceOf(getWidget('text')!, 'greeting');
  t.props.text = 'Previewed draft';
  doc.widgets = [t];
  const pageId = await newPage(request, env, `Preview pick ${Date.now().toString(36)}`, doc);
  await signIn(page, env);
  await page.goto('/dev/pages');
  const link = page.getByTestId('wb-preview');
  await expect(link).toHaveAttribute('href', `/dev/preview?project=${env.project}`);
  const [preview] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await preview.waitForLoadState();
  const picker = preview.getByTestId('preview-picker');
  await expect(picker).toBeVisible();
  await expect(preview.getByText('Preview needs a page and a project')).toHaveCount(0);
  await shot(preview, 'designer-preview-picker');
  await picker.getByTestId(`preview-pick-${pageId}`).getByRole('link').first().click();
  await expect(preview).toHaveURL(new RegExp(`/dev/preview\\?page=${pageId}&project=${env.project}`));
  await expect(preview.getByTestId('preview-banner')).toBeVisible();
  await expect(preview.getByText('Previewed draft')).toBeVisible();
});

test('a bound table shows its columns and a few real rows on the canvas, read once', async ({
  page,
  request,
}) => {
  const env = await setup(request);
  const code = `dd${Date.now().toString(36)}`;
  const P = `/api/admin/project/${env.project}`;
  const entity = await api<{ _id: string }>(request, env, `${P}/entity/create`, { name: 'Orders', code });
  await api(request, env, `${P}/${code}/field/create`, { name: 'Title', type: 'string', field: 'title' });
  await api(request, env, `${P}/${code}/field/create`, { name: 'Amount', type: 'number', field: 'amount' });
  await api(request, env, `${P}/${code}/field/create`, {
    name: 'Internal',
    type: 'string',
    field: 'internal',
    hide: true,
  });
  for (let i = 1; i <= 8; i++)
    await api(request, env, `/api/admin/data/${env.project}/${code}/save`, {
      title: `Order ${i}`,
      amount: i * 10,
      internal: `secret ${i}`,
    });
  const doc = emptyPage('bound');
  const table = instanceOf(getWidget('table')!, 'orders');
  table.props.entity = entity._id;
  table.props.index = true;
  table.layout.pc = { x: 0, y: 0, w: 80, h: 30 };
  const second = instanceOf(getWidget('table')!, 'again');
  second.props.entity = entity._id;
  second.layout.pc = { x: 0, y: 32, w: 80, h: 30 };
  const advanced = instanceOf(getWidget('advanced-table')!, 'picked');
  advanced.props.entity = entity._id;
  advanced.props.columns = [{ field: 'title', title: 'Heading' }];
  advanced.layout.pc = { x: 0, y: 64, w: 80, h: 30 };
  doc.widgets = [table, second, advanced];
  const pageId = await newPage(request, env, 'Designer bound table', doc);

  const reads: string[] = [];
  page.on('request', (r) => {
    if (/\/api\/(admin|app)\/(data|simple)\/.*\/query$/.test(r.url())) reads.push(r.url());
  });
  await openDesigner(page, env, pageId);
  const orders = canvas(page).locator('[data-wid="orders"]');
  // Columns of the bound table (the hidden field left out) after the index column the widget asks for.
  await expect(orders.locator('th')).toHaveText(['#', 'Title', 'Amount']);
  await expect(orders.locator('tbody tr.ant-table-row')).toHaveCount(5);
  await expect(orders).toContainText('Order 1');
  await expect(orders).not.toContainText('secret');
  await expect(orders).not.toContainText('No data');
  await shot(page, 'designer-bound-table');
  // The widget's own column settings: no index column here; declared columns only there.
  await expect(canvas(page).locator('[data-wid="again"] th')).toHaveText(['Title', 'Amount']);
  await expect(canvas(page).locator('[data-wid="picked"] th')).toHaveText(['Heading']);

  // One small read for the three widgets of the table; editing and moving them reads nothing more.
  expect(reads).toHaveLength(1);
  expect(reads[0]).toContain(`/api/admin/data/${env.project}/${entity._id}/query`);
  await orders.click();
  await page.keyboard.press('ArrowDown');
  await page.getByTestId('property-panel').getByTestId('prop-index').click();
  await expect(orders.locator('th')).toHaveText(['Title', 'Amount']);
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  expect(reads).toHaveLength(1);
});
