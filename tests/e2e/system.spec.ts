/**
 * The administration area as an owner uses it (/system/auth, /system/user, /system/menu), and what a
 * member then meets: a role granted a page through the grants drawer lands its member on that page
 * with only the granted menu; a banned member is refused at once and comes back when unbanned; an
 * invitation link brings a colleague in; a renamed menu entry reaches the end user. Members are
 * refused the area itself. Screens shot at desktop and phone width.
 */
import { type Browser, expect, type Page, test } from '@playwright/test';
import {
  adminApi,
  DESKTOP,
  PHONE,
  registerByApi,
  shot,
  signInUi,
  uniqueAccount,
  uniquePhone,
} from './helpers.ts';

test.describe.configure({ mode: 'serial' });

const LAYOUT = {
  pc: { cols: 120, rowHeight: 10, width: 1200 },
  mobile: { cols: 38, rowHeight: 10, width: 375 },
};

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

const suffix = Date.now().toString(36);
const S = {
  project: '',
  welcome: `Welcome ${suffix}`,
  secret: `Secret ${suffix}`,
  member: uniqueAccount('clerk'),
};
const PWD = 'secret123';

/** Opens a system's settings in this browser: picked on home (it becomes current), then the path. */
async function openSystem(page: Page, path: string) {
  await page.goto('/');
  await page.getByTestId('project-list').getByText(`Office ${suffix}`, { exact: true }).click();
  await expect(page.getByTestId('shell-title')).toHaveText(`Office ${suffix}`);
  await page.goto(path);
  await expect(page.getByTestId('system-area')).toBeVisible();
  await expect(page.getByTestId('shell-title')).toHaveText(`Office ${suffix}`);
}

async function chooseOption(page: Page, select: ReturnType<Page['getByTestId']>, label: string) {
  await select.click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: label })
    .first()
    .click();
}

async function memberPage(browser: Browser) {
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
  return { context, page: await context.newPage() };
}

test.beforeAll(async ({ request }) => {
  const call = await adminApi(request);
  S.project = (await call<{ _id: string }>('/api/common/project/create', { name: `Office ${suffix}` }))._id;
  const pages: string[] = [];
  for (const title of [S.welcome, S.secret]) {
    const page = await call<{ _id: string }>(`/api/admin/page/${S.project}/create`, {
      name: title,
      document: textPage(title),
    });
    await call(`/api/admin/page/${S.project}/${page._id}/publish`, {});
    pages.push(page._id);
  }
  const R = `/api/admin/route/${S.project}`;
  await call(`${R}/create`, { type: 'page', name: 'Welcome', value: pages[0] });
  await call(`${R}/create`, { type: 'page', name: 'Secret', value: pages[1] });
});

test('an owner creates a role, grants it a page and a home, and adds a member who lands there', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await signInUi(page, 'builder', 'builder123');
  await expect(page).toHaveURL(/\/$/);
  await openSystem(page, '/system/auth');

  // A new role through the form: an empty name is refused beside the input.
  await page.getByTestId('new-role').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog.getByText('Please enter a name')).toBeVisible();
  await dialog.getByLabel('Role name').fill('Clerk');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Modification succeeded')).toBeVisible();
  const row = page.getByTestId('role-row-Clerk');
  await expect(row).toBeVisible();

  // Grants: tick the Welcome menu entry (its page comes along) and make that page the role home.
  await row.getByTestId('role-grants').click();
  const drawer = page.getByTestId('grants-drawer');
  await drawer.locator('.ant-tree-treenode', { hasText: 'Welcome' }).locator('.ant-tree-checkbox').click();
  await drawer.getByRole('tab', { name: 'Pages' }).click();
  await expect(drawer.getByTestId('grant-page').getByLabel(S.welcome)).toBeChecked();
  await expect(drawer.getByTestId('grant-page').getByLabel(S.secret)).not.toBeChecked();
  await chooseOption(page, drawer.getByTestId('home-value'), S.welcome);
  await shot(page, 'system-auth-grants-desktop');
  await drawer.getByTestId('grants-save').click();
  await expect(page.getByText('Authorization succeeded')).toBeVisible();
  await shot(page, 'system-auth-desktop');

  // A sub-user with that role, through /system/user.
  await page.getByTestId('admin-menu-user').click();
  await expect(page).toHaveURL(/\/system\/user$/);
  await page.getByTestId('member-add').click();
  await page.getByText('Create sub-user').click();
  const create = page.getByRole('dialog');
  await create.getByLabel('Account').fill(S.member);
  await create.getByLabel('Name').fill('Cleo');
  await create.getByLabel('Password').fill(PWD);
  await chooseOption(page, create.getByTestId('form-role'), 'Clerk');
  await create.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('Create user succeeded')).toBeVisible();
  await expect(page.getByTestId(`member-row-${S.member}`)).toBeVisible();
  await expect(page.getByTestId('member-quota')).toHaveText(/^2 \/ \d+$/);
  await shot(page, 'system-user-desktop');

  // The member signs in elsewhere: the role home opens, and the menu holds only the granted entry.
  const m = await memberPage(browser);
  await signInUi(m.page, S.member, PWD);
  await expect(m.page.locator('.lc-page').getByText(S.welcome)).toBeVisible();
  await expect(m.page).toHaveURL(new RegExp(`/app/${S.project}/`));
  const menu = m.page.getByTestId('app-menu');
  await expect(menu.getByText('Welcome')).toBeVisible();
  await expect(menu.getByText('Secret')).toHaveCount(0);
  // The administration area is not theirs.
  await m.page.goto('/system/auth');
  await expect(m.page.getByTestId('system-refused')).toContainText('Only its owner and administrators');
  await expect(m.page.getByTestId('auth-screen')).toHaveCount(0);

  // Banned: their very next call is refused (back to sign-in), and signing in again is refused too.
  await page.getByTestId(`member-row-${S.member}`).getByTestId('member-ban').click();
  await expect(page.getByText('Ban succeeded')).toBeVisible();
  await expect(page.getByTestId(`member-row-${S.member}`).getByTestId('member-banned')).toBeVisible();
  await m.page.goto(`/app/${S.project}/`);
  await expect(m.page).toHaveURL(/\/login$/);
  await signInUi(m.page, S.member, PWD);
  await expect(m.page.getByText('account disabled')).toBeVisible();

  // Unbanned: they sign in and work again.
  await page.getByTestId(`member-row-${S.member}`).getByTestId('member-unban').click();
  await expect(page.getByText('Unban succeeded')).toBeVisible();
  await signInUi(m.page, S.member, PWD);
  await expect(m.page.locator('.lc-page').getByText(S.welcome)).toBeVisible();
  await m.context.close();
});

test('a colleague joins by an invitation link; a renamed menu entry reaches the end user', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const colleague = { user: uniqueAccount('coll'), pwd: PWD, phone: uniquePhone(), nickname: 'Colm' };
  await registerByApi(request, colleague);

  await signInUi(page, 'builder', 'builder123');
  await expect(page).toHaveURL(/\/$/);
  await openSystem(page, '/system/user');
  await page.getByTestId('invite-open').click();
  await chooseOption(page, page.getByTestId('invite-role'), 'Clerk');
  await page.getByTestId('invite-create').click();
  await expect(page.getByText('Invitation created')).toBeVisible();
  const link = (await page.getByTestId('invite-link').first().textContent())!.trim();
  expect(link).toMatch(/\/join\/[A-Za-z0-9_-]+$/);
  await shot(page, 'system-user-invite-desktop');
  await page.keyboard.press('Escape');

  const m = await memberPage(browser);
  await signInUi(m.page, colleague.user, PWD);
  await expect(m.page).toHaveURL(/\/$/);
  await m.page.goto(new URL(link).pathname);
  // Joined with the invitation's role: its home opens, in this system's shell.
  await expect(m.page.locator('.lc-page').getByText(S.welcome)).toBeVisible();
  await page.reload();
  await expect(page.getByTestId(`member-row-${colleague.user}`)).toBeVisible();

  // /system/menu: rename the granted entry; the member sees the new name after a reload.
  await page.getByTestId('admin-menu-menu').click();
  await expect(page).toHaveURL(/\/system\/menu$/);
  await page.getByTestId('menu-row-Welcome').getByTestId('menu-edit').click();
  const edit = page.getByRole('dialog');
  await edit.getByLabel('Menu name').fill('Start here');
  await edit.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByTestId('menu-row-Start here')).toBeVisible();
  await shot(page, 'system-menu-desktop');
  // The shell's route list is cached for 300 s (spec §9) in memory: a fresh load asks again.
  await m.page.reload();
  await expect(m.page.getByTestId('app-menu').getByText('Start here')).toBeVisible();
  await expect(m.page.getByTestId('app-menu').getByText('Secret')).toHaveCount(0);
  await m.context.close();

  // Phone width: each screen stays usable (tabs, tables scroll, drawers full width).
  await page.setViewportSize(PHONE);
  for (const section of ['menu', 'auth', 'user'] as const) {
    await page.goto(`/system/${section}`);
    await expect(page.getByTestId(`${section === 'menu' ? 'menus' : section}-screen`)).toBeVisible();
    await shot(page, `system-${section}-phone`);
  }
});

test('role options act: a member switches to an enable role and applies for an apply role, which the owner approves', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  await signInUi(page, 'builder', 'builder123');
  await expect(page).toHaveURL(/\/$/);
  await openSystem(page, '/system/auth');
  for (const [name, option] of [
    ['Reviewer', 'enable'],
    ['Editor', 'apply'],
  ] as const) {
    await page.getByTestId('new-role').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Role name').fill(name);
    await dialog.getByTestId(`opt-${option}`).click();
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByTestId(`role-row-${name}`)).toBeVisible();
  }
  await expect(page.getByTestId('role-row-Reviewer')).toContainText('Switch to');
  await expect(page.getByTestId('role-row-Editor')).toContainText('Apply to join');

  // The member (Clerk) sees both in the user center: switches to Reviewer, applies for Editor.
  const m = await memberPage(browser);
  await signInUi(m.page, S.member, PWD);
  await expect(m.page.locator('.lc-page').getByText(S.welcome)).toBeVisible();
  await m.page.goto('/user');
  await m.page.getByRole('tab', { name: 'Joined systems' }).click();
  const choices = m.page.getByTestId('role-choices');
  await choices.getByTestId('role-choice-Reviewer').click();
  await expect(m.page.getByText('Change role succeeded')).toBeVisible();
  await expect(choices.getByText('In use')).toBeVisible();
  await choices.getByTestId('role-choice-Editor').click();
  await expect(m.page.getByText('Application submitted')).toBeVisible();
  await expect(choices.getByText('Awaiting approval')).toBeVisible();
  await shot(m.page, 'system-role-choices-desktop');

  // The owner sees the switch and the application in /system/user, and approves it.
  await page.getByTestId('admin-menu-user').click();
  const row = page.getByTestId(`member-row-${S.member}`);
  await expect(row.getByTestId('member-role')).toContainText('Reviewer');
  const apps = page.locator('.system-applications');
  await expect(apps).toContainText('Editor');
  await apps.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Approve succeeded')).toBeVisible();
  await expect(row.getByTestId('member-role')).toContainText('Editor');
  await m.context.close();
});
