/**
 * The kanban playground on the socket channel: the builder and a common-role member (granted the board
 * page and the tasks table) open the demo's board in two browsers. A card dragged by one lands in its
 * new column and place for the other without a reload, in both directions; the order is stored (a
 * reload and the data API agree); a member without the page's grant cannot join the board's room.
 */
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import {
  adminApi,
  DESKTOP,
  demoProject,
  registerByApi,
  shot,
  signInWithToken,
  uniqueAccount,
  uniquePhone,
} from './helpers.ts';

test.use({ actionTimeout: 20_000 });

async function openBoard(browser: Browser, token: string, project: string, board: string): Promise<Page> {
  const ctx = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
  await signInWithToken(ctx, token, project);
  const page = await ctx.newPage();
  await page.goto(`/page/${board}`);
  // On the live channel (entered the page's room) before anyone moves a card.
  await expect(page.locator('.lc-page[data-live="live"]')).toBeVisible();
  return page;
}

const column = (page: Page, value: string) =>
  page.locator(`section.lc-kanban-column[data-column="${value}"]`);
const titles = (col: Locator) => col.locator('.lc-kanban-card-title');

/** Press on a card, move in steps (dnd-kit needs real pointer moves), release over the target. */
async function drag(page: Page, card: Locator, target: Locator, where: 'top' | 'bottom') {
  const from = (await card.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2 + 10, { steps: 4 });
  const y = where === 'top' ? to.y + 6 : to.y + to.height - 6;
  await page.mouse.move(to.x + to.width / 2, y, { steps: 12 });
  await page.waitForTimeout(150);
  await page.mouse.up();
}

test('two browsers on the kanban board: moves are saved and seen by the other at once', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const call = await adminApi(request);
  const { project, page: pageNamed } = await demoProject(call);
  const board = pageNamed('任务看板');
  const form = pageNamed('任务 / Task');

  // A clerk: a common role granted the board, its form and the tasks table (nothing else).
  const tasks = (await call<{ _id: string; _code: string }[]>(`/api/admin/project/${project}/entity`)).find(
    (e) => e._code === 'task',
  )!._id;
  const role = await call<{ _id: string }>(`/api/admin/auth/${project}/main/role/create`, {
    name: `Board ${Date.now().toString(36)}`,
    type: 'common',
  });
  await call(`/api/admin/auth/${project}/main/role/${role._id}/bind`, {
    page: [board, form],
    entity: [tasks],
  });
  const clerk = { user: uniqueAccount('kb'), pwd: 'secret123' };
  await registerByApi(request, { ...clerk, phone: uniquePhone(), nickname: 'Kanban Clerk' });
  await call(`/api/admin/user/${project}/bind`, { role: role._id, account: clerk.user });
  const clerkToken = (await adminApi(request, clerk)).token;

  const a = await openBoard(browser, call.token, project, board);
  const b = await openBoard(browser, clerkToken, project, board);

  // A moves "整理客户名单" from To do to the top of Doing.
  const todo = column(a, '待办');
  const doing = column(a, '进行中');
  await expect(titles(column(b, '进行中')).first()).toHaveText('回访VIP客户');
  const card = todo.locator('[data-card]').filter({ hasText: '整理客户名单' });
  await drag(a, card, doing.locator('[data-card]').first(), 'top');
  await expect(titles(doing).first()).toHaveText('整理客户名单');
  // B sees it without reloading: first in Doing, gone from To do.
  await expect(titles(column(b, '进行中')).first()).toHaveText('整理客户名单');
  await expect(titles(column(b, '待办'))).not.toContainText(['整理客户名单']);
  await shot(b, 'kanban-other-browser');

  // B (the clerk) moves the last Done card to the top of Done; A sees the new order.
  const doneB = column(b, '已完成');
  const before = await titles(doneB).allTextContents();
  const last = before.at(-1)!;
  await drag(
    b,
    doneB.locator('[data-card]').filter({ hasText: last }),
    doneB.locator('[data-card]').first(),
    'top',
  );
  const expected = [last, ...before.slice(0, -1)];
  await expect(titles(doneB)).toHaveText(expected);
  await expect(titles(column(a, '已完成'))).toHaveText(expected);
  await shot(a, 'kanban-board');

  // Stored: a reload shows the same board, and the data API has the new status.
  await a.reload();
  await expect(titles(column(a, '进行中')).first()).toHaveText('整理客户名单');
  await expect(titles(column(a, '已完成'))).toHaveText(expected);
  const stored = await call<{ data: { title: string; status: string }[] }>(
    `/api/app/simple/${project}/task/query`,
    {
      query: { field: 'title', type: 'text', opt: 'eq', value: '整理客户名单' },
    },
  );
  expect(stored.data[0]?.status).toBe('进行中');

  // Clicking a card's title opens it in the task form.
  await titles(column(b, '进行中')).first().click();
  const modal = b.locator('.ant-modal').filter({ hasText: '任务 / Task' });
  await expect(modal.locator('input').first()).toHaveValue('整理客户名单');
  await modal.locator('.ant-modal-close').click();

  // A task added through the form in a modal shows on both boards (the save is broadcast too).
  const name = `E2E ${Date.now().toString(36)}`;
  await a.getByRole('button', { name: '新建任务 / New task' }).click();
  const add = a.locator('.ant-modal').filter({ hasText: '新建任务 / New task' });
  await add.locator('input#title').fill(name);
  await add.locator('input#owner').fill('测试');
  await add.locator('input#status').fill('待办');
  await add.getByRole('button', { name: /保\s*存/ }).click();
  await expect(titles(column(a, '待办'))).toContainText([name]);
  await expect(titles(column(b, '待办'))).toContainText([name]);

  await a.context().close();
  await b.context().close();
});

test('a member not granted the board page is sent to /no-authority and never sees the board', async ({
  browser,
  request,
}) => {
  const call = await adminApi(request);
  const { project, page: pageNamed } = await demoProject(call);
  const board = pageNamed('任务看板');
  const role = await call<{ _id: string }>(`/api/admin/auth/${project}/main/role/create`, {
    name: `None ${Date.now().toString(36)}`,
    type: 'common',
  });
  const nobody = { user: uniqueAccount('kn'), pwd: 'secret123' };
  await registerByApi(request, { ...nobody, phone: uniquePhone(), nickname: 'Nobody' });
  await call(`/api/admin/user/${project}/bind`, { role: role._id, account: nobody.user });
  const token = (await adminApi(request, nobody)).token;
  const ctx = await browser.newContext({ viewport: DESKTOP });
  await signInWithToken(ctx, token, project);
  const page = await ctx.newPage();
  await page.goto(`/page/${board}`);
  await expect(page).toHaveURL(/\/no-authority$/);
  await ctx.close();
});
