/**
 * Co-editing in two browsers (issue #8): two builders edit one page at once and converge, see each
 * other's selection, undo only their own changes; a member who is not a builder is refused the draft
 * (issue #17); once the project expires the builders can no longer change anything; after a server
 * restart, and after `kill -9` during editing, the page reloads with every acknowledged edit. The
 * test runs its own server process so it can stop and kill it (and reach its database).
 */
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import Database from 'better-sqlite3';
import { DESKTOP, shot, signInWithToken } from './helpers.ts';
import { OwnServer } from './own-server.ts';

test.describe.configure({ mode: 'serial' });

let server: OwnServer;

test.beforeAll(async () => {
  server = await OwnServer.create();
  await server.start();
});
test.afterAll(async () => {
  await server?.dispose();
});

async function api<T>(url: string, token: string | null, data?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${url}`, {
    method: data === undefined ? 'GET' : 'POST',
    headers: {
      ...(token ? { token } : {}),
      ...(data === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(data === undefined ? {} : { body: JSON.stringify(data) }),
  });
  const body = (await res.json()) as { error: number; msg?: string; data: T };
  expect(body.error, `${url}: ${body.msg}`).toBe(0);
  return body.data;
}

const login = async (user: string, pwd: string) =>
  (await api<{ token: string }>('/api/common/user/login', null, { user, pwd })).token;

function text(id: string, value: string, y: number) {
  return {
    id,
    kind: 'text',
    version: 1,
    props: { text: value },
    layout: { pc: { x: 0, y, w: 30, h: 4 }, mobile: { x: 0, y, w: 38, h: 4 } },
  };
}

interface Setup {
  project: string;
  page: string;
  owner: string;
  admin: string;
  /** A member with a common role: no right to page drafts. */
  reviewer: string;
}

async function setup(): Promise<Setup> {
  const owner = await login('builder', 'builder123');
  const projects = await api<{ _id: string; _name: string }[]>('/api/common/project/list', owner);
  const project = (projects.find((p) => p._name === 'Demo') ?? projects[0])!._id;
  const suffix = Date.now().toString(36).slice(-5);
  const member = async (type: 'admin' | 'common', account: string) => {
    const role = await api<{ _id: string }>(`/api/admin/auth/${project}/main/role/create`, owner, {
      name: `${type} ${suffix}`,
      type,
    });
    await api(`/api/admin/user/${project}/create`, owner, {
      role: role._id,
      account,
      pwd: 'secret123',
      name: account,
    });
    return login(account, 'secret123');
  };
  const admin = await member('admin', `bob${suffix}`);
  const reviewer = await member('common', `rita${suffix}`);
  const document = {
    id: 'p',
    title: 'Together',
    version: 1,
    layout: {
      pc: { cols: 120, rowHeight: 10, width: 1200 },
      mobile: { cols: 38, rowHeight: 10, width: 375 },
    },
    widgets: [text('w1', 'one', 0), text('w2', 'two', 6), text('w3', 'three', 12)],
  };
  const page = await api<{ _id: string }>(`/api/admin/page/${project}/create`, owner, {
    name: 'Co-edited',
    document,
  });
  return { project, page: page._id, owner, admin, reviewer };
}

/** A browser signed in with `token`, on the designer of the setup's page. */
async function designer(browser: Browser, s: Setup, token: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, viewport: DESKTOP, locale: 'en-US' });
  const page = await context.newPage();
  await signInWithToken(page, token, s.project, 'en', 'dev');
  await page.goto(`/dev/design/${s.page}?project=${s.project}`);
  return page;
}

async function openAs(browser: Browser, s: Setup, token: string): Promise<Page> {
  const page = await designer(browser, s, token);
  await expect(page.getByTestId('designer')).toBeVisible();
  await expect(page.getByTestId('collab-status')).toHaveAttribute('data-status', 'connected');
  return page;
}

/** Sets the project's expiry straight in the own server's database (no call changes it). */
function setExpiry(project: string, at: number | null): void {
  const db = new Database(path.join(server.dataDir, 'app.db'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('UPDATE projects SET expired_at = ? WHERE id = ?').run(at, project);
  } finally {
    db.close();
  }
}

const item = (page: Page, id: string) => page.getByTestId('canvas').locator(`.dz-item[data-wid="${id}"]`);
const ids = async (page: Page) =>
  (
    await page
      .getByTestId('canvas')
      .locator('.dz-item')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-wid')))
  ).sort();

test('two builders co-edit one page; a member is refused the draft; expiry makes it read-only; edits survive restart and kill -9', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const s = await setup();
  const a = await openAs(browser, s, s.owner);
  const b = await openAs(browser, s, s.admin);
  await expect(a.getByTestId('presence-peer')).toHaveCount(2);
  await expect(b.getByTestId('presence-peer')).toHaveCount(2);

  // Each sees the other's selection, outlined in the other's colour.
  await item(a, 'w1').click();
  await expect(item(b, 'w1').getByTestId('peer-outline')).toHaveAttribute('data-peers', /builder|Owner/i);
  await item(b, 'w2').click();
  await expect(item(a, 'w2').getByTestId('peer-outline')).toBeVisible();
  await shot(a, 'collab-selection');

  // Both edit at once: A changes a prop and duplicates (adds); B moves one widget and deletes another.
  const before = await item(a, 'w2').boundingBox();
  await Promise.all([
    (async () => {
      await a.getByTestId('property-panel').getByTestId('prop-text').fill('from A');
      await item(a, 'w1').click();
      await a.keyboard.press('Control+d');
    })(),
    (async () => {
      await item(b, 'w2').click();
      for (let i = 0; i < 5; i++) await b.keyboard.press('ArrowRight');
      await item(b, 'w3').click();
      await b.keyboard.press('Delete');
    })(),
  ]);
  await expect(item(a, 'w3')).toHaveCount(0);
  await expect(item(b, 'w1')).toContainText('from A');
  await expect.poll(async () => (await ids(a)).length).toBe(3);
  await expect.poll(async () => JSON.stringify(await ids(b))).toBe(JSON.stringify(await ids(a)));
  await expect.poll(async () => (await item(a, 'w2').boundingBox())!.x).toBeGreaterThan(before!.x);
  expect((await item(b, 'w2').boundingBox())!.x).toBeCloseTo((await item(a, 'w2').boundingBox())!.x, 0);
  const copy = (await ids(a)).find((id) => !['w1', 'w2'].includes(id!))!;
  await shot(b, 'collab-converged');

  // Undo undoes only one's own change: B's delete comes back; A's text and copy stay.
  await item(b, 'w2').click();
  await b.keyboard.press('Control+z');
  await expect(item(a, 'w3')).toHaveCount(1);
  await expect(item(b, 'w3')).toHaveCount(1);
  await expect(item(b, 'w1')).toContainText('from A');
  await expect(item(b, copy)).toHaveCount(1);
  // A's undo takes back A's duplicate only (its copy sits over w1, a little lower and to the right).
  await item(a, 'w1').click({ position: { x: 3, y: 3 } });
  await a.keyboard.press('Control+z');
  await expect(item(b, copy)).toHaveCount(0);
  await expect(item(b, 'w3')).toHaveCount(1);

  // A member who is not a builder of the project may not see the draft: the designer shows the
  // no-authority state, never opens the co-editing socket, and nothing of the page is on screen.
  const m = await designer(browser, s, s.reviewer);
  const sockets: string[] = [];
  m.on('websocket', (ws) => sockets.push(ws.url()));
  await expect(m.getByTestId('no-authority')).toBeVisible();
  await expect(m.getByTestId('designer')).toHaveCount(0);
  await expect(m.getByText('from A')).toHaveCount(0);
  expect(sockets.filter((u) => u.includes('/yjs/'))).toEqual([]);
  await shot(m, 'collab-no-authority');
  await m.context().close();

  // The project expires while B edits (the server checks open documents again on any change of
  // users, here a nickname, and every minute): B sees everything live but can no longer change anything.
  setExpiry(s.project, Date.now() - 1000);
  await api('/api/common/user/update', s.reviewer, { nickname: 'Rita' });
  const r = b;
  await expect(r.getByTestId('collab-readonly')).toBeVisible();
  await expect(r.getByTestId('publish')).toBeDisabled();
  await expect(item(r, 'w1')).toContainText('from A');
  await item(r, 'w1').click();
  await r.keyboard.press('Delete');
  await r.keyboard.press('Control+d');
  await expect(item(r, 'w1')).toHaveCount(1);
  expect((await ids(r)).length).toBe(3);
  // Nor drag: the canvas does not even move the box on screen.
  const box = await item(r, 'w1').boundingBox();
  await r.mouse.move(box!.x + 8, box!.y + 8);
  await r.mouse.down();
  await r.mouse.move(box!.x + 120, box!.y + 90, { steps: 8 });
  await r.mouse.up();
  expect(await item(r, 'w1').boundingBox()).toEqual(box);
  await expect(item(a, 'w1')).toHaveCount(1);
  expect((await ids(a)).length).toBe(3);
  await shot(r, 'collab-read-only');
  setExpiry(s.project, null);

  // Restart: the page reloads with every edit.
  const expected = JSON.stringify(await ids(a));
  await server.stop('SIGTERM');
  await server.start();
  await a.reload();
  await expect(a.getByTestId('collab-status')).toHaveAttribute('data-status', 'connected');
  await expect(item(a, 'w1')).toContainText('from A');
  expect(JSON.stringify(await ids(a))).toBe(expected);

  // kill -9 while editing: an edit the other editor has received (so the server had it) survives.
  await expect(b.getByTestId('collab-status')).toHaveAttribute('data-status', 'connected');
  await item(a, 'w2').click();
  await a.getByTestId('property-panel').getByTestId('prop-text').fill('before the crash');
  await expect(item(b, 'w2')).toContainText('before the crash');
  await a.waitForTimeout(1000);
  await server.stop('SIGKILL');
  await server.start();
  await a.reload();
  await expect(a.getByTestId('collab-status')).toHaveAttribute('data-status', 'connected');
  await expect(item(a, 'w2')).toContainText('before the crash');
  await expect(item(a, 'w1')).toContainText('from A');
  await shot(a, 'collab-after-crash');
  await a.context().close();
  await b.context().close();
});
