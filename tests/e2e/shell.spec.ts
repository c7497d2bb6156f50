/**
 * The end-user shell as a new user meets it: register with the SMS code, join the Demo system as a
 * common-role member, see only the granted menu, open a list, get /no-authority for the rest, switch
 * language and mode (drawer menu on mobile), use the user center, and log out.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import {
  ADMIN,
  adminApi,
  DESKTOP,
  fillSettled,
  PHONE,
  sendCode,
  shot,
  trackCaptcha,
  uniqueAccount,
  uniquePhone,
} from './helpers.ts';

test.use({ actionTimeout: 20_000 });

/** In Demo: two tables with rows, menu Sales › Orders and a top-level Secret list, and a role granting Sales and Orders. */
async function seedDemo(request: APIRequestContext) {
  const call = await adminApi(request);
  const projects = await call<Array<{ _id: string; _name: string }>>('/api/common/project/list');
  const demo = projects.find((p) => p._name === 'Demo')!;
  const p = demo._id;
  const suffix = Date.now().toString(36);
  const orders = `ord${suffix}`;
  const secret = `sec${suffix}`;
  const A = `/api/admin/project/${p}`;
  const ordersEntity = await call<{ _id: string }>(`${A}/entity/create`, { name: 'Orders', code: orders });
  await call(`${A}/entity/create`, { name: 'Secret', code: secret });
  await call(`${A}/${orders}/field/create`, { name: 'Title', type: 'string', field: 'title' });
  await call(`${A}/${orders}/field/create`, { name: 'Amount', type: 'number', field: 'amount' });
  await call(`${A}/${secret}/field/create`, { name: 'Code', type: 'string', field: 'code' });
  for (const [title, amount] of [
    ['Desk', 120],
    ['Chair', 45],
  ] as const) {
    await call(`/api/admin/data/${p}/${orders}/save`, { title, amount });
  }
  await call(`/api/admin/data/${p}/${secret}/save`, { code: 'classified' });
  const R = `/api/admin/route/${p}`;
  const dir = await call<{ _id: string }>(`${R}/create`, { type: 'dir', name: 'Sales' });
  const ordersEntry = await call<{ _id: string }>(`${R}/create`, {
    type: 'table',
    name: 'Orders list',
    parent: dir._id,
    value: orders,
  });
  await call(`${R}/create`, { type: 'table', name: 'Secret list', value: secret });
  const role = await call<{ _id: string }>(`/api/admin/auth/${p}/main/role/create`, {
    name: `Clerk ${suffix}`,
    type: 'common',
  });
  await call(`/api/admin/auth/${p}/main/role/${role._id}/bind`, {
    route: [dir._id, ordersEntry._id],
    entity: [ordersEntity._id],
  });
  return { call, project: p, orders, secret, role: role._id };
}

async function registerUi(page: Page, request: APIRequestContext, account: string, phone: string) {
  const latestTicket = trackCaptcha(page);
  await page.goto('/login/register');
  await page.getByLabel('Account', { exact: true }).fill(account);
  await page.getByLabel('Company or full name').fill('Ada Clerk');
  await page.waitForLoadState('networkidle');
  await fillSettled(page.getByLabel('Phone'), phone);
  const code = await sendCode(page, request, latestTicket, phone, 'reg');
  await page.getByLabel('SMS code').fill(code);
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByLabel('Repeat password').fill('secret123');
  await page.getByLabel('I have read and agree').check();
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
}

test('a common-role user: granted menu only, list rows, /no-authority, language, mobile drawer, user center, logout', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const seed = await seedDemo(request);
  const account = uniqueAccount('clerk');
  const phone = uniquePhone();

  // Login screen pictured at both sizes before anything else.
  await page.setViewportSize(PHONE);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await shot(page, 'shell-login-phone');
  await page.setViewportSize(DESKTOP);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await shot(page, 'shell-login-desktop');

  // Registered in a page of its own (same browser context): its captcha tracker reads answers sealed
  // with no token, and later captchas in the user center are sealed with the user's token.
  const regPage = await page.context().newPage();
  await registerUi(regPage, request, account, phone);
  await regPage.close();
  await seed.call(`/api/admin/user/${seed.project}/bind`, { role: seed.role, account });
  await page.goto('/');

  // The Demo menu: Sales › Orders list, and not the Secret list.
  const menu = page.getByTestId('app-menu');
  await expect(menu.getByText('Sales')).toBeVisible();
  await expect(menu.getByText('Orders list')).toBeVisible();
  await expect(menu.getByText('Secret list')).toHaveCount(0);
  await menu.getByText('Orders list').click();
  await expect(page).toHaveURL(new RegExp(`/home/${seed.orders}$`));
  const list = page.getByTestId('list-screen');
  await expect(list.getByRole('cell', { name: 'Desk' })).toBeVisible();
  await expect(list.getByRole('cell', { name: 'Chair' })).toBeVisible();
  await expect(list.getByText('Rows: 2')).toBeVisible();
  await expect(page.getByTestId('recent-tags').getByText('Orders list')).toBeVisible();
  await shot(page, 'shell-list-desktop');

  // Home: recently used shows the list; the tag stays above the content.
  await page.getByTestId('tool-home').click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('recent-used').getByText('Orders list')).toBeVisible();
  await expect(page.getByTestId('project-list').locator('.ant-spin-spinning')).toHaveCount(0);
  await shot(page, 'shell-home-desktop');

  // A list the role is not granted: /no-authority.
  await page.goto(`/home/${seed.secret}`);
  await expect(page).toHaveURL(/\/no-authority$/);
  await expect(page.getByTestId('no-authority')).toContainText('No permission');

  // The admin area is for the owner and administrators: a member is told so, not shown a blank.
  await page.goto('/system/menu');
  await expect(page.getByTestId('system-refused')).toContainText('Only its owner and administrators');

  // Chinese: the shell is translated.
  await page.goto('/');
  await page.getByTestId('lang-switch').getByText('中文').click();
  await expect(page.getByTestId('logout')).toHaveText('退出登录');
  await expect(page.getByTestId('recent-used')).toContainText('最近使用');
  await expect(page.getByRole('button', { name: '切换到移动端' })).toBeVisible();
  await page.getByTestId('lang-switch').getByText('English').click();
  await expect(page.getByTestId('logout')).toHaveText('Log out');

  // User center: nickname (12 characters at most), wrong current password, invalid phone.
  await page.getByTestId('current-user').click();
  await expect(page).toHaveURL(/\/user$/);
  const nickname = page.getByLabel('Nickname');
  await nickname.fill('A name that is far too long');
  await page.getByTestId('save-nickname').click();
  await expect(page.getByText('nickname is at most 12 characters')).toBeVisible();
  await nickname.fill('Ada B');
  await page.getByTestId('save-nickname').click();
  await expect(page.getByText('Save succeeded')).toBeVisible();
  await expect(page.getByTestId('current-user')).toContainText('Ada B');
  await shot(page, 'shell-user-desktop');

  await page.getByRole('tab', { name: 'Security settings' }).click();
  const pwdForm = page.getByTestId('password-form');
  await pwdForm.getByLabel('Current password').fill('wrong999');
  await pwdForm.getByLabel('New password', { exact: true }).fill('better123');
  await pwdForm.getByLabel('Repeat new password').fill('better123');
  await pwdForm.getByRole('button', { name: 'Change password' }).click();
  await expect(pwdForm.getByText('current password wrong')).toBeVisible();

  const phoneForm = page.getByTestId('phone-form');
  await phoneForm.getByLabel('Phone').fill('12345');
  await phoneForm.getByTestId('send-code').click();
  await expect(phoneForm.getByText('phone number format is not valid')).toBeVisible();

  await page.getByRole('tab', { name: 'Joined systems' }).click();
  await expect(page.getByTestId('current-system')).toHaveText('Demo');

  // Mobile mode: the menu becomes a drawer; the toolbar folds into "More".
  await page.getByTestId('tool-screen-mode').click();
  await expect(page.getByTestId('menu-open')).toBeVisible();
  await expect(page.getByTestId('app-menu')).toHaveCount(0);
  await page.setViewportSize(PHONE);
  await shot(page, 'shell-user-phone');
  await page.getByTestId('menu-open').click();
  const drawerMenu = page.locator('.shell-drawer').getByTestId('app-menu');
  await expect(drawerMenu.getByText('Orders list')).toBeVisible();
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await shot(page, 'shell-menu-drawer-phone');
  await drawerMenu.getByText('Orders list').click();
  await expect(page).toHaveURL(new RegExp(`/home/${seed.orders}$`));
  // On a phone the list shows its rows as cards.
  await expect(page.getByTestId('list-screen').getByText('Desk', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Home' }).click();
  await expect(page.getByTestId('recent-used')).toBeVisible();
  await expect(page.getByTestId('project-item')).toBeVisible();
  await expect(page.getByTestId('project-list').locator('.ant-spin-spinning')).toHaveCount(0);
  await shot(page, 'shell-home-phone');
  // The mode is kept across a reload.
  await page.reload();
  await expect(page.getByTestId('menu-open')).toBeVisible();

  // Log out from "More": back at sign-in, and the session is gone.
  await page.getByTestId('tool-more').click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/user');
  await expect(page).toHaveURL(/\/login$/);
});

test('URL options: mode=mobile is stored, o_u_token signs in, wx_token gets the coded notice', async ({
  page,
  request,
}) => {
  const login = (await (await request.post('/api/common/user/login', { data: ADMIN })).json()) as {
    data: { token: string };
  };
  await page.goto(`/?mode=mobile&o_u_token=${login.data.token}&bm_src=e2e`);
  await expect(page.getByTestId('menu-open')).toBeVisible();
  // The consumed options leave the address.
  await expect(page).toHaveURL(/\/$/);
  expect(await page.evaluate(() => localStorage.getItem('lc_screen_mode'))).toBe('mobile');
  expect(await page.evaluate(() => sessionStorage.getItem('bm_src'))).toBe('e2e');

  await page.goto('/?wx_token=abc&mode=pc');
  await expect(page.getByText('1680')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('lc_wx_token'))).toBe('abc');
  await expect(page.getByTestId('menu-collapse')).toBeVisible();

  // Routes of the table: /pc-only, /upgrade, /dev/provider.
  await page.goto('/upgrade');
  await expect(page.getByTestId('tier-basics')).toContainText('¥899');
  await expect(page.getByTestId('tier-enterprise')).toContainText('¥9,800');
  await expect(page.getByTestId('tier-custom')).toContainText('¥200,000');
  // No payment provider is configured in this run: the wizard says so instead of offering to pay.
  await expect(page.getByText('Online payment is not available on this server')).toBeVisible();
  await page.goto('/pc-only');
  await expect(page.getByText('Desktop only')).toBeVisible();
  await page.goto('/dev/provider');
  await expect(page.getByTestId('provider-current')).toContainText('No prefix in use');

  // o_w_full hides menu and top bar.
  await page.goto('/user?o_w_full=1');
  await expect(page.getByTestId('user-center')).toBeVisible();
  await expect(page.locator('.top-bar')).toHaveCount(0);
  await page.evaluate(() => sessionStorage.clear());

  // A leading 24-hex project segment activates that project; …/logout then goes to /{project}/login.
  const projects = (await (
    await request.get('/api/common/project/list', { headers: { token: login.data.token } })
  ).json()) as { data: Array<{ _id: string; _name: string }> };
  const demo = projects.data.find((p) => p._name === 'Demo')!;
  await page.goto(`/${demo._id}/user`);
  await expect(page.getByTestId('user-center')).toBeVisible();
  await expect(page.getByTestId('shell-title')).toHaveText('Demo');
  await expect(page.getByTestId('shell-title')).toHaveAttribute('href', `/${demo._id}`);
  await page.goto(`/${demo._id}/logout`);
  await expect(page).toHaveURL(new RegExp(`/${demo._id}/login$`));
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('early-access mode offers 日本語, Tiếng Việt and 粵語, and the shell speaks them', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Account or phone').fill(ADMIN.user);
  await page.getByLabel('Password').fill(ADMIN.pwd);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('logout')).toBeVisible();
  await page.goto('/user');
  await page.getByRole('tab', { name: 'Language settings' }).click();
  await page.getByTestId('early-access').click();
  const pick = async (name: string) => {
    await page.locator('.top-bar').getByTestId('lang-switch').click();
    await page.locator('.ant-select-dropdown:visible').getByText(name, { exact: true }).click();
  };
  await pick('日本語');
  await expect(page.getByTestId('logout')).toHaveText('ログアウト');
  await expect(page.getByRole('tab', { name: '言語設定' })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('logout')).toHaveText('ログアウト');
  await pick('粵語');
  await expect(page.getByTestId('logout')).toHaveText('登出');
  await pick('Tiếng Việt');
  await expect(page.getByTestId('logout')).toHaveText('Đăng xuất');
  // Off again: back to English.
  await page.getByRole('tab', { name: 'Cài đặt ngôn ngữ' }).click();
  await page.getByTestId('early-access').click();
  await expect(page.getByTestId('logout')).toHaveText('Log out');
});
