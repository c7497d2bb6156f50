/**
 * What a builder sees of the designer's tools (issue #17, item 13): the property panel follows undo,
 * redo and co-editors; the canvas fits the page's width; the layers tree scrolls to nested widgets;
 * delete and duplicate have buttons and a context menu; a bound table shows its columns and rows.
 */
import { expect, test } from '@playwright/test';
import { getWidget } from '../../widgets/registry.ts';
import { emptyPage, instanceOf } from '../fixtures/pages.ts';
import { canvas, newPage, openDesigner, setup } from './designer-kit.ts';
import { DESKTOP } from './helpers.ts';

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
