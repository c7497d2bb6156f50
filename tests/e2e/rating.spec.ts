/**
 * A kind added the way widgets/README.md shows (`rating`: its folder and one registry line) works end
 * to end: a builder drops it from the palette, sets its star count in the generated property panel,
 * wires its onChange event to a notice in the events tab and publishes; an end user granted the page
 * clicks a star and the action runs with the chosen score.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { ADMIN, DESKTOP, shot, signInWithToken } from './helpers.ts';

async function api<T>(
  request: APIRequestContext,
  token: string | null,
  url: string,
  data?: unknown,
): Promise<T> {
  const headers = token ? { token } : undefined;
  const res =
    data === undefined ? await request.get(url, { headers }) : await request.post(url, { headers, data });
  const body = (await res.json()) as { error: number; msg?: string; data: T };
  expect(body.error, `${url}: ${body.msg}`).toBe(0);
  return body.data;
}

async function signInAs(page: Page, token: string, project: string, mode: 'dev' | 'app'): Promise<void> {
  await signInWithToken(page, token, project, 'en', mode);
}

test('a rating dropped in the designer runs its onChange action when an end user clicks a star', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const owner = (await api<{ token: string }>(request, null, '/api/common/user/login', ADMIN)).token;
  const suffix = Date.now().toString(36).slice(-5);
  const project = (
    await api<{ _id: string }>(request, owner, '/api/common/project/create', { name: `Rating ${suffix}` })
  )._id;

  // The builder: a blank page in the designer, a rating dropped from the palette.
  const ctx = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
  const page = await ctx.newPage();
  await signInAs(page, owner, project, 'dev');
  await page.goto('/dev/pages');
  await page.getByTestId('new-page').click();
  await page.locator('#page-create_name').fill('Feedback');
  await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn-primary').click();
  await page.getByTestId('page-row-Feedback').getByTestId('page-name').click();
  await expect(page.getByTestId('designer')).toBeVisible();
  await expect(page.getByTestId('collab-status')).toHaveAttribute('data-status', 'connected');
  const pageId = new URL(page.url()).pathname.split('/').pop()!;

  const grid = page.getByTestId('canvas').locator('.dz-grid').first();
  await page.getByTestId('palette-rating').dragTo(grid, { targetPosition: { x: 200, y: 40 } });
  const rating = page.getByTestId('canvas').locator('.dz-item[data-kind="rating"]');
  await expect(rating).toHaveCount(1);
  await rating.click();
  const panel = page.getByTestId('property-panel');
  await expect(panel).toHaveAttribute('data-kind', 'rating');
  const id = ((await panel.locator('.panel-head code').textContent()) ?? '').trim();
  expect(id).not.toBe('');

  // A prop of the generated panel: seven stars, shown on the canvas at once.
  await panel.locator('[data-prop="prop-count"] input').fill('7');
  await expect(rating.locator('.ant-rate-star')).toHaveCount(7);

  // The events tab offers the kind's declared event; its notice names the score chosen.
  await panel.getByRole('tab', { name: 'Events' }).click();
  await expect(panel.getByTestId('event-onChange')).toContainText('On rating change');
  await panel.getByTestId('add-action-onChange').click();
  await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item', { hasText: 'Notify' }).click();
  await panel.getByTestId('action-onChange.0-message').fill(`Rated {{widgets.${id}}} of 7`);
  await expect(panel.getByTestId('action-onChange.0').locator('.panel-error')).toHaveCount(0);
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  await shot(page, 'rating-designer');

  await page.getByTestId('publish').click();
  await page.getByTestId('publish-note').fill('Rating');
  await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn-primary').click();
  await expect(page.locator('.ant-message')).toContainText('1');
  await ctx.close();

  // An end user granted the page clicks the fourth star: the action runs with that score.
  const role = await api<{ _id: string }>(request, owner, `/api/admin/auth/${project}/main/role/create`, {
    name: 'Guests',
    type: 'common',
  });
  await api(request, owner, `/api/admin/auth/${project}/main/role/${role._id}/bind`, { page: [pageId] });
  const account = `guest${suffix}`;
  await api(request, owner, `/api/admin/user/${project}/create`, {
    role: role._id,
    account,
    pwd: 'secret123',
    name: 'Guest',
  });
  const user = (
    await api<{ token: string }>(request, null, '/api/common/user/login', { user: account, pwd: 'secret123' })
  ).token;
  const endUser = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
  const view = await endUser.newPage();
  await signInAs(view, user, project, 'app');
  await view.goto(`/page/${pageId}`);
  const stars = view.locator(`.lc-page [data-wid="${id}"] .ant-rate-star`);
  await expect(stars).toHaveCount(7);
  await stars.nth(3).click();
  await expect(view.locator('.ant-notification')).toContainText('Rated 4 of 7');
  await expect(view.locator(`.lc-page [data-wid="${id}"] .ant-rate-star-full`)).toHaveCount(4);
  await shot(view, 'rating-end-user');
  await endUser.close();
});
