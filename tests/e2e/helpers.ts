/** What the browser tests share: test hooks of the server, screenshots, sign-in steps. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
} from '@playwright/test';
import { open } from '../../src/shared/envelope.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCREENSHOTS = path.join(root, 'test-results/screenshots');

export const ADMIN = { user: 'builder', pwd: 'builder123' };
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** A mainland mobile number nobody else in this run has. */
export function uniquePhone(): string {
  return `139${String(Date.now() % 1e6).padStart(6, '0')}${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`;
}

/** A valid account name, unique to this run. */
export function uniqueAccount(prefix = 'user'): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`.slice(0, 16);
}

/** Console errors and uncaught exceptions of a page, gathered from now on. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * Keep the ticket of the latest captcha the page fetched. The answer is sealed with the default key
 * (no token yet), so the test opens it as the client does.
 */
export function trackCaptcha(page: Page): () => string {
  let ticket = '';
  page.on('response', async (res) => {
    if (!res.url().includes('/api/common/utils/captcha')) return;
    const body = (await res.json()) as { encrypted?: string; data?: { ticket: string } };
    const answer = body.encrypted ? open<{ data: { ticket: string } }>(body.encrypted, null) : body;
    if (answer.data) ticket = answer.data.ticket;
  });
  return () => ticket;
}

/** The answer to a captcha, from the server's test hook. */
export async function captchaAnswer(request: APIRequestContext, ticket: string): Promise<string> {
  const res = await request.get(`/api/test/captcha/${ticket}`);
  const body = (await res.json()) as { data: { answer: string } };
  return body.data.answer;
}

/** The latest SMS code sent to a phone, from the server's test outbox. */
export async function latestCode(request: APIRequestContext, phone: string, type: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get(`/api/test/outbox?phone=${phone}`);
      const body = (await res.json()) as { data: Array<{ code: string; type: string }> };
      code = body.data.filter((m) => m.type === type).at(-1)?.code;
      return code;
    })
    .toBeTruthy();
  return code!;
}

/** Solve the captcha shown on the page, press "Send code", and answer the code that was sent. */
export async function sendCode(
  page: Page,
  request: APIRequestContext,
  latestTicket: () => string,
  phone: string,
  type: string,
): Promise<string> {
  await expect.poll(latestTicket).not.toBe('');
  // On a loaded machine the form can mount over an early fill, or the picture be fetched again
  // (a new ticket) between reading the answer and pressing the button: answer the latest one again
  // until the code is on its way. A form mounted over the early fill lost the phone too: fill it again.
  await expect(async () => {
    await fillSettled(page.getByLabel('Phone'), phone);
    const answer = await captchaAnswer(request, latestTicket());
    await fillSettled(page.getByLabel('Image code'), answer);
    await page.getByTestId('send-code').click();
    await expect(page.getByTestId('send-code')).toContainText('Resend in', { timeout: 5_000 });
  }).toPass({ timeout: 45_000 });
  return latestCode(request, phone, type);
}

/** Sign in through the login form. */
export async function signInUi(page: Page, user: string, pwd: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Account or phone').fill(user);
  await page.getByLabel('Password').fill(pwd);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Register a user over HTTP (raw JSON) through the same captcha → code → reg steps. */
export async function registerByApi(
  request: APIRequestContext,
  input: { user: string; pwd: string; phone: string; nickname: string },
): Promise<void> {
  const cap = (await (await request.get('/api/common/utils/captcha')).json()) as {
    data: { ticket: string };
  };
  const randstr = await captchaAnswer(request, cap.data.ticket);
  const sent = await request.post('/api/common/utils/verifyCode', {
    data: { phone: input.phone, ticket: cap.data.ticket, randstr, type: 'reg' },
  });
  expect(((await sent.json()) as { error: number }).error).toBe(0);
  const verify = await latestCode(request, input.phone, 'reg');
  const reg = await request.post('/api/common/user/reg', { data: { ...input, verify } });
  expect(((await reg.json()) as { error: number }).error).toBe(0);
}

/**
 * Fill a field and make sure the value stays: on a loaded machine a lazily loaded form can mount
 * over an early fill, so fill again until the value holds.
 */
export async function fillSettled(field: Locator, value: string): Promise<void> {
  await expect(async () => {
    if ((await field.inputValue()) !== value) await field.fill(value);
    await expect(field).toHaveValue(value, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
}

/** Calls over raw JSON with a user's token (the builder's by default); a non-zero error fails the test. */
export async function adminApi(request: APIRequestContext, who: { user: string; pwd: string } = ADMIN) {
  const login = (await (await request.post('/api/common/user/login', { data: who })).json()) as {
    data: { token: string };
  };
  const headers = { token: login.data.token };
  const call = async <T>(url: string, data?: unknown): Promise<T> => {
    const res =
      data === undefined ? await request.get(url, { headers }) : await request.post(url, { headers, data });
    const body = (await res.json()) as { error: number; data: T; msg?: string };
    expect(body.error, `${url}: ${body.msg}`).toBe(0);
    return body.data;
  };
  return Object.assign(call, { token: login.data.token });
}

/** The Demo project created on first run, and its published pages by name. */
export async function demoProject(call: Awaited<ReturnType<typeof adminApi>>) {
  const projects = await call<{ _id: string; _name: string }[]>('/api/common/project/list');
  const project = projects.find((p) => p._name === 'Demo')!._id;
  const pages = await call<{ _id: string; name: string }[]>(`/api/app/page/${project}/`);
  const page = (prefix: string) => pages.find((p) => p.name.startsWith(prefix))!._id;
  return { project, page };
}

/**
 * Signed in with a token and a chosen project (English UI unless `lang` says otherwise) before any
 * page script runs; `mode` picks the builder's (`dev`) or the end user's (`app`) side.
 */
export async function signInWithToken(
  target: Page | BrowserContext,
  token: string,
  project: string,
  lang = 'en',
  mode?: 'dev' | 'app',
) {
  await target.addInitScript(
    ([t, p, l, m]) => {
      // The session belongs to the page, not its frames (the sandbox frame may not read storage).
      if (window !== window.top) return;
      localStorage.setItem('token', t);
      localStorage.setItem('lc_project', p);
      localStorage.setItem('lang', l);
      if (m) localStorage.setItem('lc_mode', m);
    },
    [token, project, lang, mode ?? ''] as const,
  );
}

/** The builder's API client and the Demo project with its demo pages (customers list and detail). */
export async function demoAsBuilder(request: APIRequestContext) {
  const call = await adminApi(request);
  const d = await demoProject(call);
  return {
    call,
    token: call.token,
    project: d.project,
    page: d.page,
    list: d.page('客户一览'),
    detail: d.page('客户详情'),
  };
}

/** Open an antd select and choose the option showing `text`. */
export async function pick(page: Page, select: Locator, text: string, search?: string): Promise<void> {
  await select.click();
  if (search) await page.keyboard.type(search);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text })
    .first()
    .click();
}
