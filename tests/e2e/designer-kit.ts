/** Steps the designer's browser tests share: sign in through the API, make a page, open the designer. */
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import { ADMIN, signInWithToken } from './helpers.ts';

export interface Env {
  token: string;
  project: string;
}

export async function api<T>(
  request: APIRequestContext,
  env: Env | null,
  url: string,
  data?: unknown,
): Promise<T> {
  const headers = env ? { token: env.token } : undefined;
  const res =
    data === undefined ? await request.get(url, { headers }) : await request.post(url, { headers, data });
  const body = (await res.json()) as { error: number; msg?: string; data: T };
  expect(body.error, `${url}: ${body.msg}`).toBe(0);
  return body.data;
}

/** The builder's token and first project (made when there is none). */
export async function setup(request: APIRequestContext): Promise<Env> {
  const login = await api<{ token: string }>(request, null, '/api/common/user/login', ADMIN);
  const env = { token: login.token, project: '' };
  const projects = await api<{ _id: string }[]>(request, env, '/api/common/project/list');
  env.project =
    projects[0]?._id ??
    (await api<{ _id: string }>(request, env, '/api/common/project/create', { name: 'Designer e2e' }))._id;
  return env;
}

/** A new page (blank, or with a document) of the project; its id. */
export async function newPage(
  request: APIRequestContext,
  env: Env,
  name: string,
  document?: unknown,
): Promise<string> {
  const body = document === undefined ? { name } : { name, document };
  return (await api<{ _id: string }>(request, env, `/api/admin/page/${env.project}/create`, body))._id;
}

/** Signs the page's browser in as the builder (English UI, dev mode) before anything loads. */
export async function signIn(page: Page, env: Env): Promise<void> {
  await signInWithToken(page, env.token, env.project, 'en', 'dev');
}

export async function openDesigner(page: Page, env: Env, pageId: string): Promise<void> {
  await signIn(page, env);
  await page.goto(`/dev/design/${pageId}?project=${env.project}`);
  await expect(page.getByTestId('designer')).toBeVisible();
}

export const canvas = (page: Page) => page.getByTestId('canvas');
export const items = (page: Page) => canvas(page).locator('.dz-item');

/** Drags a palette tile onto a grid at a point (relative to the grid element). */
export async function dropKind(page: Page, kind: string, target: Locator, x: number, y: number) {
  const tile = page.getByTestId(`palette-${kind}`);
  await tile.scrollIntoViewIfNeeded();
  await tile.dragTo(target, { targetPosition: { x, y } });
}
