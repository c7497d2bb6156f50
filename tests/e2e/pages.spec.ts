/**
 * The workbench's pages list and menus as a builder uses them: a page from the list template bound
 * to a table, rename, duplicate, remove, publish with a note, versions and restore; a page menu entry
 * pointing at it; the field order changed by drag and kept after a reload.
 */
import { expect, type Page, test } from '@playwright/test';
import { ADMIN, pick, shot, signInUi } from './helpers.ts';

async function okModal(page: Page): Promise<void> {
  await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn-primary').click();
  await expect(page.locator('.ant-modal:visible')).toHaveCount(0);
}

/** Confirms the open confirmation dialog with its button named `name`. */
async function confirm(page: Page, name: string): Promise<void> {
  const dialog = page.locator('.ant-modal-confirm:visible');
  await dialog.getByRole('button', { name }).click();
  await expect(dialog).toHaveCount(0);
}

async function addField(page: Page, name: string, key: string, type?: string): Promise<void> {
  await page.getByTestId('new-field').click();
  await page.locator('#field-form_name').fill(name);
  if (type) await pick(page, page.getByTestId('field-form').locator('#field-form_type'), type);
  await page.locator('#field-form_field').fill(key);
  await okModal(page);
  await expect(page.getByTestId('field-editor').getByRole('cell', { name, exact: true })).toBeVisible();
}

const fieldNames = (page: Page) =>
  page.getByTestId('field-editor').locator('tbody tr.ant-table-row td:nth-child(2)');

test.use({ actionTimeout: 20_000 });

test('builder manages pages, versions and menus; field order by drag', async ({ page }) => {
  test.setTimeout(240_000);
  await signInUi(page, ADMIN.user, ADMIN.pwd);
  await expect(page.getByTestId('project-list')).toBeVisible();
  await page.getByTestId('manage-mode').click();
  await expect(page).toHaveURL(/\/dev\/data$/);

  const projectName = `PG ${Date.now().toString(36)}`;
  await page.getByTestId('new-project').click();
  await page.locator('#wb-create-project_name').fill(projectName);
  await okModal(page);
  await expect(page.getByTestId('project-switcher')).toContainText(projectName);

  // A table with three fields.
  await page.getByTestId('new-table').click();
  await page.locator('#entity-form_name').fill('Orders');
  await page.locator('#entity-form_code').fill('orders');
  await okModal(page);
  await expect(page.getByTestId('entity-screen').getByRole('heading')).toContainText('Orders');
  const tableId = /\/dev\/data\/([^/?]+)/.exec(page.url())?.[1];
  expect(tableId).toBeTruthy();
  await addField(page, 'Title', 'title');
  await addField(page, 'Amount', 'amount', 'Number');
  await addField(page, 'Note', 'note');
  await expect(fieldNames(page)).toHaveText(['Title', 'Amount', 'Note']);

  // Field order by drag: Note's handle dragged above Title; the order holds after a reload.
  const editor = page.getByTestId('field-editor');
  const handle = editor.locator('tr.ant-table-row', { hasText: 'Note' }).getByTestId('field-drag');
  const target = editor.locator('tr.ant-table-row', { hasText: 'Title' });
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
  await page.mouse.move(from.x + from.width / 2, to.y + 2, { steps: 15 });
  await page.mouse.up();
  await expect(page.locator('.ant-message')).toContainText('Field moved to position 1');
  await expect(fieldNames(page)).toHaveText(['Note', 'Title', 'Amount']);
  // The keyboard moves a row too: Space picks Amount up, ArrowUp moves it, Space drops it.
  // Each step is announced in the live region; the next key waits for it.
  const live = page.locator('[id^="DndLiveRegion"]');
  await editor.locator('tr.ant-table-row', { hasText: 'Amount' }).getByTestId('field-drag').focus();
  await page.keyboard.press('Space');
  // Picked up, then over its own place: the drag is live once that is announced.
  await expect(live).toContainText('Field Amount is over position 3.');
  // dnd-kit's keyboard sensor starts listening for arrows in a timer after the pick-up, so under load
  // the first ArrowUp can come before it listens and be lost: press again only while nothing moved.
  await expect(async () => {
    if (!(await live.textContent())?.includes('over position 2.')) await page.keyboard.press('ArrowUp');
    await expect(live).toContainText('Field Amount is over position 2.', { timeout: 5000 });
  }).toPass({ timeout: 30_000 });
  await page.keyboard.press('Space');
  await expect(live).toContainText('Field Amount dropped at position 2.');
  await expect(fieldNames(page)).toHaveText(['Note', 'Amount', 'Title']);
  await expect(editor.locator('.ant-spin-spinning')).toHaveCount(0);
  await page.reload();
  await expect(fieldNames(page)).toHaveText(['Note', 'Amount', 'Title']);
  await shot(page, 'workbench-fields-drag');

  // Pages area: empty, then a page from the list template bound to Orders.
  await page.getByTestId('wb-menu').getByRole('link', { name: 'Pages' }).click();
  await expect(page).toHaveURL(/\/dev\/pages$/);
  await expect(page.getByTestId('pages-screen')).toContainText('No pages yet');
  await page.getByTestId('new-page').click();
  await page.locator('#page-create_name').fill('Order list');
  await pick(page, page.locator('#page-create_template'), 'List page');
  await okModal(page).catch(() => undefined);
  // The table is asked for before anything is created.
  await expect(page.locator('#page-create_table_help')).toContainText('Choose the table');
  await pick(page, page.locator('#page-create_table'), 'Orders');
  await shot(page, 'workbench-page-create');
  await okModal(page);
  const row = (name: string) => page.getByTestId(`page-row-${name}`);
  await expect(row('Order list').getByTestId('page-state')).toHaveText('Never published');

  // The stored draft holds the template's table widget bound to Orders.
  const pagesOf = async () =>
    page.evaluate(
      async (p) => {
        const token = localStorage.getItem('token') ?? '';
        const res = await fetch(`/api/admin/page/${p}/`, { headers: { token } });
        return ((await res.json()) as { data: { _id: string; name: string }[] }).data;
      },
      await page.evaluate(() => localStorage.getItem('lc_project')),
    );
  const created = (await pagesOf()).find((x) => x.name === 'Order list')!;
  const doc = await page.evaluate(
    async ([p, id]) => {
      const token = localStorage.getItem('token') ?? '';
      const res = await fetch(`/api/admin/page/${p}/${id}`, { headers: { token } });
      return (
        (await res.json()) as {
          data: { document: { widgets: { kind: string; props: { entity?: string } }[] } };
        }
      ).data.document;
    },
    [await page.evaluate(() => localStorage.getItem('lc_project')), created._id] as const,
  );
  expect(doc.widgets.map((w) => w.kind)).toEqual(['text', 'table']);
  expect(doc.widgets[1]!.props.entity).toBe(tableId);

  // Rename, duplicate, remove the duplicate.
  await row('Order list').getByTestId('page-more').click();
  await page.locator('.ant-dropdown:visible').getByText('Rename').click();
  await page.locator('#name-modal_name').fill('Orders overview');
  await okModal(page);
  await expect(row('Orders overview')).toBeVisible();
  await row('Orders overview').getByTestId('page-more').click();
  await page.locator('.ant-dropdown:visible').getByText('Duplicate').click();
  await expect(page.locator('#name-modal_name')).toHaveValue('Orders overview copy');
  await okModal(page);
  await expect(row('Orders overview copy')).toBeVisible();
  await row('Orders overview copy').getByTestId('page-more').click();
  await page.locator('.ant-dropdown:visible').getByText('Remove').click();
  await expect(page.locator('.ant-modal-confirm:visible')).toContainText(
    'Remove page "Orders overview copy"?',
  );
  await confirm(page, 'Remove');
  await expect(row('Orders overview copy')).toHaveCount(0);
  await expect(row('Orders overview')).toBeVisible();
  expect((await pagesOf()).map((x) => x.name)).toEqual(['Orders overview']);

  // Publish with a note; the version shows in the drawer; restoring it makes it the draft.
  await row('Orders overview').getByTestId('page-publish').click();
  await expect(page.locator('.ant-modal:visible')).toContainText('as version 1');
  await page.locator('#page-publish_note').fill('First release');
  await okModal(page);
  await expect(row('Orders overview').getByTestId('page-state')).toHaveText('Published v1');
  await shot(page, 'workbench-pages');
  await row('Orders overview').getByTestId('page-versions').click();
  const drawer = page.locator('.ant-drawer:visible');
  await expect(drawer.getByTestId('version-1')).toContainText('Version 1');
  await expect(drawer.getByTestId('version-1')).toContainText('First release');
  await expect(drawer.getByTestId('version-1')).toContainText('Live');
  await shot(page, 'workbench-page-versions');
  await drawer.getByTestId('version-restore').click();
  await confirm(page, 'Restore');
  await expect(page.locator('.ant-message')).toContainText('Version 1 restored as the draft');
  await drawer.locator('.ant-drawer-close').click();
  await expect(row('Orders overview').getByTestId('page-state')).toHaveText(
    /Published v1\s*Draft changed since publish/,
  );
  // Links: designer, preview and the published page.
  const pid = await page.evaluate(() => localStorage.getItem('lc_project'));
  await expect(row('Orders overview').getByRole('link', { name: 'Orders overview' })).toHaveAttribute(
    'href',
    `/dev/design/${created._id}`,
  );
  await row('Orders overview').getByTestId('page-more').click();
  const more = page.locator('.ant-dropdown:visible');
  await expect(more.getByTestId('page-preview')).toHaveAttribute(
    'href',
    `/dev/preview?page=${created._id}&project=${pid}`,
  );
  await expect(more.getByTestId('page-open')).toHaveAttribute('href', `/app/${pid}/${created._id}`);
  await page.keyboard.press('Escape');
  await expect(more).toHaveCount(0);
  await row('Orders overview').getByTestId('page-design').click();
  await expect(page).toHaveURL(new RegExp(`/dev/design/${created._id}$`));
  await page.goBack();
  await expect(row('Orders overview')).toBeVisible();

  // Menus: a directory and a page entry pointing at the page.
  await page.getByTestId('wb-menu').getByRole('link', { name: 'Menus' }).click();
  await expect(page).toHaveURL(/\/dev\/menus$/);
  await expect(page.getByTestId('menus-screen')).toContainText('No menus yet');
  await page.getByTestId('new-menu').click();
  await page.locator('#menu-form_name').fill('Sales');
  await pick(page, page.locator('#menu-form_type'), 'Directory');
  await okModal(page);
  await page.getByTestId('new-menu').click();
  await page.locator('#menu-form_name').fill('Overview');
  await pick(page, page.locator('#menu-form_type'), 'Custom page');
  await pick(page, page.locator('#menu-form_value'), 'Orders overview');
  await okModal(page);
  const menu = (name: string) => page.getByTestId(`menu-row-${name}`);
  await expect(menu('Overview').getByTestId('menu-target')).toHaveText('Orders overview');
  await expect(menu('Overview').getByTestId('menu-type')).toHaveText('Custom page');
  // Ends cannot move; a custom page binds no programs.
  await expect(menu('Sales').getByTestId('menu-up')).toBeDisabled();
  await expect(menu('Overview').getByTestId('menu-down')).toBeDisabled();
  await expect(menu('Overview').getByTestId('menu-bind')).toBeDisabled();
  await menu('Overview').getByTestId('menu-up').click();
  await expect(page.locator('tbody tr.ant-table-row').first()).toContainText('Overview');
  await expect(menu('Overview').getByTestId('menu-up')).toBeDisabled();
  // A table entry inside the directory.
  await page.getByTestId('new-menu').click();
  await page.locator('#menu-form_name').fill('All orders');
  await pick(page, page.locator('#menu-form_value'), 'Orders');
  await pick(page, page.locator('#menu-form_parent'), 'Sales');
  await okModal(page);
  await expect(menu('All orders').getByTestId('menu-target')).toHaveText('Orders');
  await expect(page.locator('tbody tr.ant-table-row').last()).toContainText('All orders');
  await shot(page, 'workbench-menus');
  // Removing the directory says what stays, and its entry moves up.
  await menu('Sales').getByTestId('menu-remove').click();
  await expect(page.locator('.ant-modal-confirm:visible')).toContainText(
    'tables, datasets and functions stay',
  );
  await confirm(page, 'Remove');
  await expect(menu('Sales')).toHaveCount(0);
  await expect(menu('All orders')).toBeVisible();

  // The same screens in Chinese.
  await page.getByTestId('lang-switch').getByText('中文').click();
  await expect(page.getByTestId('menus-screen').getByRole('heading')).toHaveText('菜单');
  await page.getByTestId('wb-menu').getByRole('link', { name: '页面' }).click();
  await expect(row('Orders overview').getByTestId('page-state')).toHaveText(/已发布 v1\s*草稿已修改未发布/);
  await shot(page, 'workbench-pages-zh');
});
