/**
 * A member's first day, signed in through the login form (nothing stored in the browser before):
 * the granted page opens at /page/{id}, the home screen's systems open with a click, and the menu's
 * page entries (/app/{project}/{page}, rule 9) open inside the shell — menu, toolbar, sign-out — on
 * desktop and, with the drawer menu, on a phone; `?o_w_full=1` still shows a page alone. What the
 * member reads is for end users: system names and role titles, no ids, no "Create a system".
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { adminApi, DESKTOP, PHONE, shot, signInUi, uniqueAccount } from './helpers.ts';

const LAYOUT = {
  pc: { cols: 120, rowHeight: 10, width: 1200 },
  mobile: { cols: 38, rowHeight: 10, width: 375 },
};

/** A published page holding one line of text. */
function textPage(text: string) {
  return {
    id: 'draft',
    title: text,
    version: 1,
    layout: LAYOUT,
    widgets: [
      {
        id: 'line',
        kind: 'text',
        version: 1,
        props: { text, fontSize: 20 },
        layout: { pc: { x: 0, y: 0, w: 60, h: 4 }, mobile: { x: 0, y: 0, w: 38, h: 4 } },
      },
    ],
  };
}

/**
 * As the owner: a system with two published pages and a table, a menu (two page entries, one list),
 * and a role granting all of it; answers the ids.
 */
async function seedSystem(call: Awaited<ReturnType<typeof adminApi>>, name: string) {
  const p = (await call<{ _id: string }>('/api/common/project/create', { name }))._id;
  const code = `t${Date.now().toString(36)}`;
  const entity = await call<{ _id: string }>(`/api/admin/project/${p}/entity/create`, {
    name: 'Tasks',
    code,
  });
  await call(`/api/admin/project/${p}/${code}/field/create`, {
    name: 'Title',
    type: 'string',
    field: 'title',
  });
  await call(`/api/admin/data/${p}/${code}/save`, { title: 'Water the plants' });
  const pages: string[] = [];
  for (const title of [`${name} welcome`, `${name} second`]) {
    const page = await call<{ _id: string }>(`/api/admin/page/${p}/create`, {
      name: title,
      document: textPage(title),
    });
    await call(`/api/admin/page/${p}/${page._id}/publish`, {});
    pages.push(page._id);
  }
  const R = `/api/admin/route/${p}`;
  const entries = [
    await call<{ _id: string }>(`${R}/create`, { type: 'page', name: 'Welcome', value: pages[0] }),
    await call<{ _id: string }>(`${R}/create`, { type: 'page', name: 'Second', value: pages[1] }),
    await call<{ _id: string }>(`${R}/create`, { type: 'table', name: 'Task list', value: code }),
  ];
  const role = await call<{ _id: string }>(`/api/admin/auth/${p}/main/role/create`, {
    name: 'Clerk',
    type: 'common',
  });
  await call(`/api/admin/auth/${p}/main/role/${role._id}/bind`, {
    route: entries.map((e) => e._id),
    page: pages,
    entity: [entity._id],
  });
  return { project: p, pages, role: role._id };
}

async function seed(request: APIRequestContext) {
  const call = await adminApi(request);
  const suffix = Date.now().toString(36);
  const north = await seedSystem(call, `North ${suffix}`);
  const south = await seedSystem(call, `South ${suffix}`);
  const account = uniqueAccount('mem');
  await call(`/api/admin/user/${north.project}/create`, {
    role: north.role,
    account,
    pwd: 'secret123',
    name: 'Mia',
  });
  await call(`/api/admin/user/${south.project}/bind`, { role: south.role, account });
  return { north, south, account, suffix };
}

const shellVisible = async (page: Page) => {
  await expect(page.locator('.top-bar')).toBeVisible();
  await expect(page.getByTestId('shell-title')).toBeVisible();
};

test('a member signed in through the form: /page/{id}, systems on home, menu pages in the shell', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const s = await seed(request);
  await page.setViewportSize(DESKTOP);
  await signInUi(page, s.account, 'secret123');
  await expect(page).toHaveURL(/\/$/);

  // The granted page at /page/{id}, loaded cold with no system chosen in this browser: drawn in the
  // shell of the member's first system, not "Choose a system first".
  await page.evaluate(() => localStorage.removeItem('lc_project'));
  await page.goto(`/page/${s.north.pages[0]}`);
  await expect(page.locator('.lc-page').getByText(`North ${s.suffix} welcome`)).toBeVisible();
  await expect(page.getByText('Choose a system first')).toHaveCount(0);
  await shellVisible(page);
  await page.goto('/');

  // Home: both systems by name with a readable role; no ids, no "common", no "Create a system".
  const list = page.getByTestId('project-list');
  await expect(list.getByTestId('project-item')).toHaveCount(2);
  await expect(list.getByText(`North ${s.suffix}`, { exact: true })).toBeVisible();
  await expect(list.getByTestId('project-role').first()).toHaveText('Member');
  await expect(page.getByText(s.north.project)).toHaveCount(0);
  await expect(page.getByText(s.south.project)).toHaveCount(0);
  await expect(page.getByText('common', { exact: true })).toHaveCount(0);
  await expect(page.getByText('Create a system')).toHaveCount(0);
  await expect(page.getByTestId('create-project')).toHaveCount(0);
  await shot(page, 'member-home-desktop');

  // A system opens with a click: the shell then shows it (title, menu).
  await list.getByRole('button', { name: `Open South ${s.suffix}` }).click();
  await expect(page.getByTestId('shell-title')).toHaveText(`South ${s.suffix}`);
  await expect(list.locator('[data-current="1"]')).toContainText(`South ${s.suffix}`);
  await list.getByRole('button', { name: `Open North ${s.suffix}` }).click();
  await expect(page.getByTestId('shell-title')).toHaveText(`North ${s.suffix}`);

  // Menu page entries open at /app/{project}/{page} inside the shell, and the menu stays.
  await page.goto('/');
  const menu = page.getByTestId('app-menu');
  await menu.getByText('Welcome').click();
  await expect(page).toHaveURL(new RegExp(`/app/${s.north.project}/${s.north.pages[0]}$`));
  await expect(page.locator('.lc-page').getByText(`North ${s.suffix} welcome`)).toBeVisible();
  await shellVisible(page);
  await expect(page.getByTestId('logout')).toBeVisible();
  await menu.getByText('Second').click();
  await expect(page).toHaveURL(new RegExp(`/app/${s.north.project}/${s.north.pages[1]}$`));
  await expect(page.locator('.lc-page').getByText(`North ${s.suffix} second`)).toBeVisible();
  await expect(menu.getByText('Task list')).toBeVisible();
  await shot(page, 'member-app-page-desktop');

  // A cold load of an /app page draws the shell of that page's system (the other one stored).
  await page.goto(`/app/${s.south.project}/${s.south.pages[0]}`);
  await expect(page.locator('.lc-page').getByText(`South ${s.suffix} welcome`)).toBeVisible();
  await expect(page.getByTestId('shell-title')).toHaveText(`South ${s.suffix}`);
  await expect(page.getByTestId('app-menu').getByText('Second')).toBeVisible();

  // The user center names the role, not its stored type.
  await page.getByTestId('current-user').click();
  await page.getByRole('tab', { name: 'Joined systems' }).click();
  await expect(page.getByTestId('joined-projects')).toContainText('Member');
  await expect(page.getByTestId('joined-projects').getByText('common', { exact: true })).toHaveCount(0);

  // Standalone (embedding): ?o_w_full=1 shows the page alone.
  await page.goto(`/app/${s.north.project}/${s.north.pages[0]}?o_w_full=1`);
  await expect(page.locator('.lc-page').getByText(`North ${s.suffix} welcome`)).toBeVisible();
  await expect(page.locator('.top-bar')).toHaveCount(0);
  await expect(page.getByTestId('app-menu')).toHaveCount(0);
  await expect(page.getByTestId('recent-tags')).toHaveCount(0);
  await page.evaluate(() => sessionStorage.clear());

  // On a phone: the drawer menu opens pages in the shell, and is there again after the first choice.
  await page.setViewportSize(PHONE);
  await page.goto(`/app/${s.north.project}/${s.north.pages[0]}`);
  await expect(page.locator('.lc-page').getByText(`North ${s.suffix} welcome`)).toBeVisible();
  await expect(page.getByTestId('menu-open')).toBeVisible();
  await shot(page, 'member-app-page-phone');
  await page.getByTestId('menu-open').click();
  const drawer = page.locator('.shell-drawer');
  await expect(drawer.getByText('Second')).toBeVisible();
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await shot(page, 'member-menu-drawer-phone');
  await drawer.getByText('Second').click();
  await expect(page).toHaveURL(new RegExp(`/app/${s.north.project}/${s.north.pages[1]}$`));
  await expect(page.locator('.lc-page').getByText(`North ${s.suffix} second`)).toBeVisible();
  await expect(drawer).toBeHidden();
  await page.getByTestId('menu-open').click();
  await expect(drawer.getByText('Task list')).toBeVisible();
  await drawer.getByText('Task list').click();
  // On a phone the list shows its rows as cards.
  await expect(page.getByTestId('list-screen').getByText('Water the plants', { exact: true })).toBeVisible();

  // Sign-out is reachable from a page too (phone: under "More").
  await page.goBack();
  await expect(page.locator('.lc-page').getByText(`North ${s.suffix} second`)).toBeVisible();
  await page.getByTestId('tool-more').click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
});
