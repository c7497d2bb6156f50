/**
 * The playground's sample apps at /playground/{app} (issue 26): every page drawn at its natural size
 * (the shop on a 390×844 phone, the dashboard on a desktop) without console errors, with a screenshot;
 * and what each is for: add to cart → buy → the order shows in the order list (and its tracking);
 * the cart lists its lines and total, a line is removed, checkout makes the order;
 * a category narrows the goods; an address edited with the region picker is saved; a new avatar is
 * uploaded to the profile; the dashboard's region filter redraws its charts.
 */
import { type Browser, expect, type Page, test } from '@playwright/test';
import { adminApi, DESKTOP, demoProject, PHONE, shot, signInWithToken } from './helpers.ts';

test.use({ actionTimeout: 20_000 });

const SHOP = [
  'mall-index',
  'category',
  'goods-detail',
  'cart',
  'order-list',
  'address',
  'edit-address',
  'logistics',
  'service',
  'user-page',
  'userinfo',
];

/** A signed-in page of the given size that records console errors and uncaught exceptions. */
async function open(
  browser: Browser,
  call: Awaited<ReturnType<typeof adminApi>>,
  viewport: { width: number; height: number },
) {
  const ctx = await browser.newContext({ viewport, locale: 'zh-CN' });
  await signInWithToken(ctx, call.token, (await demoProject(call)).project, 'zh');
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors };
}

/** Goes to a sample page and waits until its widgets have their data. */
async function visit(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('.lc-playground .lc-page')).toBeVisible();
  await expect(page.locator('.lc-page[data-busy="1"]')).toHaveCount(0);
  await expect(page.locator('.lc-page [data-deferred]')).toHaveCount(0);
  // Every picture drawn before the screenshot. Polled, not waited on the network going idle (live
  // pages refetch whenever another user writes): a page's onLoad may still be at work (the member page
  // makes the profile, then reloads its card), so a picture still loading is asked again; one that
  // failed to load stays in the list and fails the check.
  await expect
    .poll(
      () =>
        page.evaluate(() =>
          [...document.images]
            .filter((i) => !i.complete || i.naturalWidth === 0)
            .map((i) => i.getAttribute('src')),
        ),
      { message: `${path}: images that did not load` },
    )
    .toEqual([]);
  await expect(page.locator('.lc-page[data-busy="1"]')).toHaveCount(0);
}

const cards = (page: Page, wid: string) => page.locator(`[data-wid="${wid}"] .lc-card-list-item`);

test('the phone shop: every page, add to cart, buy, the order and its tracking, categories', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const call = await adminApi(request);
  const { page, errors } = await open(browser, call, PHONE);

  for (const app of SHOP) {
    await visit(page, `/playground/${app}`);
    await expect(page.locator('.lc-playground')).toHaveAttribute('data-mode', 'mobile');
    await shot(page, `playground-${app}`);
  }
  expect(errors, errors.join('\n')).toEqual([]);

  // The home page: banners, six categories, the eight best sellers.
  await visit(page, '/playground/mall-index');
  await expect(cards(page, 'cats')).toHaveCount(6);
  await expect(cards(page, 'goods')).toHaveCount(8);
  await expect(page.locator('[data-wid="banner"] img').first()).toBeVisible();

  // A category narrows the goods to it.
  await cards(page, 'cats').filter({ hasText: '平板' }).click();
  await expect(page).toHaveURL(/\/playground\/category\?cat=tablet$/);
  await expect(page.getByRole('tab', { name: '平板' })).toHaveAttribute('aria-selected', 'true');
  await expect(cards(page, 'goods')).toHaveCount(2);
  await page.getByRole('tab', { name: '耳机' }).click();
  await expect(cards(page, 'goods')).toHaveCount(2);
  await expect(cards(page, 'goods').first()).toContainText(/FreeBuds|AirPods/);
  await page.getByRole('tab', { name: '全部' }).click();
  await expect(cards(page, 'goods')).toHaveCount(16);

  // A product: add it to the cart, then buy it; the order list opens with the new order first.
  await visit(page, '/playground/mall-index');
  await cards(page, 'goods').filter({ hasText: 'Xiaomi 15' }).click();
  await expect(page).toHaveURL(/\/playground\/goods-detail\?id=[0-9a-f]{24}$/);
  await expect(page.locator('.lc-detail-card-title')).toHaveText('Xiaomi 15 16GB+512GB');
  await expect(page.locator('.lc-detail-card-price')).toHaveText('¥4999');
  await shot(page, 'playground-goods-detail-xiaomi');
  await page.getByRole('button', { name: '加入购物车 Cart' }).click();
  await expect(page.getByText('已加入购物车 / Added to cart: Xiaomi 15 16GB+512GB')).toBeVisible();
  await page.getByRole('button', { name: '立即购买 Buy' }).click();
  await expect(page).toHaveURL(/\/playground\/order-list$/);
  await expect(page.getByText(/下单成功 \/ Order placed: SO\d{10}/)).toBeVisible();
  const first = cards(page, 'orders').first();
  await expect(first).toContainText('Xiaomi 15 16GB+512GB');
  await expect(first).toContainText('待付款');
  await expect(first).toContainText('¥4999');
  await shot(page, 'playground-order-list-after-buy');
  // The status tabs: the new order is to be paid, not shipped.
  await page.getByRole('tab', { name: '待付款' }).click();
  await expect(cards(page, 'orders')).toHaveCount(1);
  await expect(cards(page, 'orders').first()).toContainText('Xiaomi 15');
  await page.getByRole('tab', { name: '待收货' }).click();
  await expect(cards(page, 'orders')).toHaveCount(1);
  await expect(cards(page, 'orders').first()).toContainText('Mate 70 Pro');
  // Its tracking: the buy program wrote the first event.
  await page.getByRole('tab', { name: '待付款' }).click();
  await cards(page, 'orders').first().getByRole('button', { name: '查看物流 Track' }).click();
  await expect(page).toHaveURL(/\/playground\/logistics\?no=SO\d{10}$/);
  await expect(page.locator('[data-wid="track"]')).toContainText('订单已提交，等待付款');
  await shot(page, 'playground-logistics-new-order');

  // The cart (from the tab bar): the line added above with its quantity, the total; checkout turns it
  // into an order that shows first in the order list, and the cart is empty.
  await visit(page, '/playground/mall-index');
  await page.locator('[data-wid="tabbar"]').getByText('购物车').click();
  await expect(page).toHaveURL(/\/playground\/cart$/);
  const line = cards(page, 'lines').filter({ hasText: 'Xiaomi 15 16GB+512GB' });
  await expect(line).toContainText(/× \d+/);
  await expect(page.locator('[data-wid="total"]')).toContainText(/合计 Total: ¥[1-9]\d*/);
  await shot(page, 'playground-cart');
  // A second product added from its page, then removed from the cart.
  await visit(page, '/playground/mall-index');
  await cards(page, 'goods').filter({ hasText: 'Mate 70 Pro' }).click();
  await page.getByRole('button', { name: '加入购物车 Cart' }).click();
  await expect(page.getByText(/已加入购物车 \/ Added to cart: HUAWEI Mate 70 Pro/)).toBeVisible();
  await page.getByRole('button', { name: '购物车', exact: true }).click();
  await expect(page).toHaveURL(/\/playground\/cart$/);
  const mate = cards(page, 'lines').filter({ hasText: 'Mate 70 Pro' });
  await expect(mate).toHaveCount(1);
  await mate.getByRole('button', { name: '删除 Remove' }).click();
  await expect(mate).toHaveCount(0);
  await expect(line).toHaveCount(1);
  // The "removed" notice sits over the top of a phone screen until it goes (pointer moved off it).
  await page.mouse.move(20, 600);
  await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
  await page.getByRole('button', { name: '结算 Checkout' }).click();
  await expect(page).toHaveURL(/\/playground\/order-list$/);
  await expect(page.getByText(/下单成功 \/ Order placed: SO\d{10}/)).toBeVisible();
  await expect(cards(page, 'orders').first()).toContainText('Xiaomi 15 16GB+512GB');
  await expect(cards(page, 'orders').first()).toContainText(/SO\d{10}-\d+/);
  await visit(page, '/playground/cart');
  await expect(page.locator('[data-wid="lines"]')).toContainText('购物车是空的 / The cart is empty');
  await expect(page.locator('[data-wid="total"]')).toContainText('合计 Total: ¥0');
  expect(errors, errors.join('\n')).toEqual([]);
});

test('the phone shop: an address edited with the region picker is saved; a new avatar on the profile', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const call = await adminApi(request);
  const { page, errors } = await open(browser, call, PHONE);
  await visit(page, '/playground/address');
  const wang = cards(page, 'list').filter({ hasText: '王芳' });
  await wang.getByRole('button', { name: '编辑 Edit' }).click();
  await expect(page).toHaveURL(/\/playground\/edit-address\?id=[0-9a-f]{24}$/);
  const form = page.locator('[data-wid="form"]');
  await expect(form.getByLabel('收货人')).toHaveValue('王芳');
  await form.locator('.ant-cascader').click();
  await page.locator('.ant-cascader-menu-item', { hasText: '江苏省' }).click();
  await page.locator('.ant-cascader-menu-item', { hasText: '苏州市' }).click();
  await page.locator('.ant-cascader-menu-item', { hasText: '工业园区' }).click();
  await form.getByLabel('详细地址').fill('星湖街 328 号 5 栋 801');
  await shot(page, 'playground-edit-address-filled');
  await form.getByRole('button', { name: '保存 Save' }).click();
  await expect(page).toHaveURL(/\/playground\/address$/);
  const saved = cards(page, 'list').filter({ hasText: '王芳' });
  await expect(saved).toContainText('江苏省/苏州市/工业园区');
  await expect(saved).toContainText('星湖街 328 号 5 栋 801');
  // Stored: a reload reads it back.
  await page.reload();
  await expect(cards(page, 'list').filter({ hasText: '王芳' })).toContainText('星湖街 328 号 5 栋 801');

  // The profile: the member's own (made on the first visit to the member page); a new avatar
  // (a 1×1 PNG) uploaded and a nickname saved, then shown on the member's page.
  await visit(page, '/playground/user-page');
  const profile = page.locator('[data-wid="profile"] .lc-card-list-item');
  await expect(profile).toHaveCount(1);
  // Made quietly: no "done" notice on every visit.
  await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
  await profile.click();
  await expect(page).toHaveURL(/\/playground\/userinfo\?id=[0-9a-f]{24}$/);
  await expect(page.locator('[data-wid="form"]').getByLabel('昵称')).not.toHaveValue('');
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  await page.locator('[data-wid="form"] input[type="file"]').setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: png,
  });
  await expect(page.locator('[data-wid="form"] .ant-avatar img')).toHaveAttribute('src', /^\/upload\//);
  await page.locator('[data-wid="form"]').getByLabel('昵称').fill('张伟 Wei');
  await shot(page, 'playground-userinfo-own');
  await page.getByRole('button', { name: '保存 Save' }).click();
  await expect(page).toHaveURL(/\/playground\/user-page$/);
  await expect(page.locator('[data-wid="profile"] .lc-card-list-title')).toHaveText('张伟 Wei');
  await expect(page.locator('[data-wid="profile"] img')).toHaveAttribute('src', /^\/upload\//);
  // The profile link of the member page opens the same row.
  await page.getByRole('button', { name: '个人资料 Profile' }).click();
  await expect(page).toHaveURL(/\/playground\/userinfo\?id=[0-9a-f]{24}$/);
  await expect(page.locator('[data-wid="form"]').getByLabel('昵称')).toHaveValue('张伟 Wei');
  await page.goBack();
  await expect(page.locator('[data-wid="profile"] .lc-card-list-title')).toHaveText('张伟 Wei');
  await shot(page, 'playground-user-page-after-edit');
  expect(errors, errors.join('\n')).toEqual([]);
});

test('the dashboard on a desktop: charts from datasets, narrowed by the region filter', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const call = await adminApi(request);
  const { page, errors } = await open(browser, call, DESKTOP);
  await visit(page, '/playground/platform-index');
  await expect(page.locator('.lc-playground')).toHaveAttribute('data-mode', 'pc');
  const month = page.locator('[data-wid="byMonth"] [role="img"]');
  const channel = page.locator('[data-wid="byChannel"] [role="img"]');
  await expect(month).toHaveAttribute('aria-label', /2025-06 \d+; .*2025-11 \d+$/);
  await expect(page.locator('[data-wid="byCategory"] canvas')).toBeVisible();
  await expect(page.locator('[data-wid="byRegion"]')).toContainText('华东');
  const allMonths = (await month.getAttribute('aria-label'))!;
  const allChannels = (await channel.getAttribute('aria-label'))!;
  await shot(page, 'playground-platform-index');

  await page.locator('[data-wid="region"] .ant-select').click();
  await page.locator('.ant-select-item-option', { hasText: '华南 South' }).click();
  await expect(month).not.toHaveAttribute('aria-label', allMonths);
  await expect(channel).not.toHaveAttribute('aria-label', allChannels);
  // Each month of one region sells less than all regions together.
  const values = (label: string) => [...label.matchAll(/2025-\d\d (\d+)/g)].map((m) => Number(m[1]));
  const south = values((await month.getAttribute('aria-label'))!);
  const all = values(allMonths);
  expect(south).toHaveLength(6);
  for (const [i, v] of south.entries()) expect(v).toBeLessThan(all[i]!);
  await shot(page, 'playground-platform-index-south');
  // Back to all regions.
  await page.locator('[data-wid="region"] .ant-select').click();
  await page.locator('.ant-select-item-option', { hasText: '全部地区 All regions' }).click();
  await expect(month).toHaveAttribute('aria-label', allMonths);
  expect(errors, errors.join('\n')).toEqual([]);
});
