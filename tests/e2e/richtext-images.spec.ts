/**
 * Images in rich text, as a builder adds them in the designer (issue #24, item 5): "Insert image"
 * uploads a picture through the rich-text helper (`ueditor?action=uploadimage`) and adds it to the
 * content; "Uploaded images" lists the project's images and inserts one again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { grayPng } from '../../src/server/data/xlsx/images.ts';
import { getWidget } from '../../widgets/registry.ts';
import { emptyPage, instanceOf } from '../fixtures/pages.ts';
import { canvas, newPage, openDesigner, setup } from './designer-kit.ts';
import { DESKTOP, shot } from './helpers.ts';

test.use({ viewport: DESKTOP });

test('a builder uploads an image into rich text and inserts it again from the uploaded images', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-rt-'));
  const photo = path.join(dir, 'harbour.png');
  fs.writeFileSync(
    photo,
    grayPng(80, 60, (x, y) => (((x >> 2) + (y >> 2)) % 2 ? 30 : 200)),
  );
  const env = await setup(request);
  const doc = emptyPage('rt');
  const w = instanceOf(getWidget('richtext')!, 'story');
  w.props.html = '<p>Story</p>';
  doc.widgets = [w];
  const pageId = await newPage(request, env, 'Rich text images', doc);
  await openDesigner(page, env, pageId);
  const story = canvas(page).locator('[data-wid="story"]');
  await story.click();
  const panel = page.getByTestId('property-panel');
  const insert = panel.getByTestId('prop-html-image');
  await expect(insert).toBeVisible();

  // Insert image: the file goes through the helper and lands in the content and on the canvas.
  const chooser = page.waitForEvent('filechooser');
  await insert.click();
  await (await chooser).setFiles(photo);
  const img = story.locator('img[src*="/upload/project/"]');
  await expect(img).toHaveCount(1, { timeout: 30_000 });
  await expect(img).toHaveAttribute('alt', 'harbour');
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
  const src = await img.getAttribute('src');

  // Uploaded images: the same picture is offered, and a click inserts it a second time.
  await panel.getByRole('button', { name: /Uploaded images/ }).click();
  const gallery = page.getByTestId('prop-html-image-gallery');
  await expect(gallery.locator(`img[src="${src}"]`)).toBeVisible();
  await gallery.locator(`button:has(img[src="${src}"])`).click();
  await expect(story.locator(`img[src="${src}"]`)).toHaveCount(2);
  await shot(page, 'richtext-images');
});

test("the image widget's source and the carousel's slides take an uploaded picture or one already uploaded", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-src-'));
  const photo = path.join(dir, 'quay.png');
  fs.writeFileSync(
    photo,
    grayPng(64, 48, (x, y) => ((x + y) % 16 < 8 ? 60 : 220)),
  );
  const env = await setup(request);
  const doc = emptyPage('src');
  const pic = instanceOf(getWidget('image')!, 'pic');
  const show = instanceOf(getWidget('swiper')!, 'show', 20);
  doc.widgets = [pic, show];
  const pageId = await newPage(request, env, 'Image sources', doc);
  await openDesigner(page, env, pageId);
  const panel = page.getByTestId('property-panel');

  // The image widget: "Upload image" sets its source to the stored picture, drawn on the canvas.
  await canvas(page).locator('[data-wid="pic"]').click();
  const upload = panel.getByTestId('prop-src-upload');
  await expect(upload).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await upload.click();
  await (await chooser).setFiles(photo);
  const srcInput = panel.getByTestId('prop-src');
  await expect(srcInput).toHaveValue(/\/upload\/project\//, { timeout: 30_000 });
  const src = await srcInput.inputValue();
  const drawn = canvas(page).locator(`[data-wid="pic"] img[src="${src}"]`);
  await expect(drawn).toHaveCount(1);
  await expect.poll(() => drawn.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(64);

  // The carousel: the same picture picked from the uploaded ones becomes its first slide.
  await canvas(page).locator('[data-wid="show"]').click();
  await panel
    .getByTestId('prop-list')
    .getByRole('button', { name: /Uploaded images/ })
    .click();
  const gallery = page.getByTestId('prop-list-upload-gallery');
  await gallery.locator(`button:has(img[src="${src}"])`).click();
  await expect(panel.getByTestId('prop-list-0')).toHaveValue(src);
  await expect(canvas(page).locator(`[data-wid="show"] img[src="${src}"]`).first()).toBeVisible();
  await shot(page, 'image-sources');
});
