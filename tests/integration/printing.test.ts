/**
 * Printing calls: new-window keys (single use, expiring, the preparing user's only, this project's
 * only, a page that is published), and sheet/print's modes and its coded error without Chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareKey, takeKey } from '../../src/server/print/keys.ts';
import { PRINT_KEY_TTL_MS } from '../../src/shared/print.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import { snapshot } from '../helpers/state.ts';

const dialects = await testDialects();

const doc = {
  id: 'p',
  title: 'Print page',
  version: 1,
  layout: { pc: { cols: 120, rowHeight: 10, width: 1200 }, mobile: { cols: 38, rowHeight: 10, width: 375 } },
  _option: { _pc: { print: { info: 'from the page', columns: 3 } } },
  widgets: [],
};

describe.each(dialects)('printing on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let other: string;
  let project: string;
  let foreign: string;
  let page: string;
  let draft: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, { user: 'print1', pwd: 'abc12345', phone: '13600000091' }));
    ({ token: other } = await registerUser(t.app, { user: 'print2', pwd: 'abc12345', phone: '13600000092' }));
    const create = async (token: string, name: string) =>
      (await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', { token, body: { name } }))
        .data._id;
    project = await create(owner, 'Printing');
    foreign = await create(other, 'Theirs');
    const G = `/api/admin/page/${project}`;
    page = (
      await call<{ _id: string }>(t.app, 'POST', `${G}/create`, {
        token: owner,
        body: { name: 'P', document: doc },
      })
    ).data._id;
    expect((await call(t.app, 'POST', `${G}/${page}/publish`, { token: owner, body: {} })).error).toBe(0);
    draft = (
      await call<{ _id: string }>(t.app, 'POST', `${G}/create`, {
        token: owner,
        body: { name: 'D', document: doc },
      })
    ).data._id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const prepare = (body: unknown, token = owner, p = project) =>
    call<{ key: string; url: string; expiresAt: number }>(t.app, 'POST', `/api/app/util/${p}/print/prepare`, {
      token,
      body,
    });
  const take = (key: string, token = owner, p = project) =>
    call<{ page: string; print: Record<string, unknown> }>(t.app, 'POST', `/api/app/util/${p}/print/take`, {
      token,
      body: { key },
    });

  it('keeps the print under a key that opens the print page and is taken once', async () => {
    const print = {
      title: 'Orders',
      data: [{ a: 1 }, { a: 2 }],
      field: [{ key: 'a', title: 'A' }],
      copies: 2,
    };
    const r = await prepare({ page, print });
    expect(r.error).toBe(0);
    expect(r.data.key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(r.data.url).toBe(`/app/${project}/print/${page}?key=${r.data.key}`);
    const got = await take(r.data.key);
    expect(got.data).toEqual({ page, print });
    // Single use.
    const again = await take(r.data.key);
    expect(again.error).toBe(2120);
    expect(again.status).toBe(410);
    // The plain document (no page): page `-` in the URL.
    const plain = await prepare({ page: '' });
    expect(plain.data.url).toMatch(new RegExp(`^/app/${project}/print/-\\?key=`));
  });

  it('refuses other users, other projects, unpublished and foreign pages, and keys in use', async () => {
    const r = await prepare({ page: '' });
    // Another user (not a member here): refused before the key is looked at; a member of the
    // other project cannot take it there either.
    expect((await take(r.data.key, other)).error).not.toBe(0);
    expect((await take(r.data.key, other, foreign)).error).toBe(2120);
    // Still there for its owner.
    expect((await take(r.data.key)).error).toBe(0);
    expect((await prepare({ page: draft })).error).toBe(2126);
    const before = await snapshot(t.app);
    const foreignPage = await prepare({ page }, other, foreign);
    expect(foreignPage.error).toBe(2126);
    expect(await snapshot(t.app)).toEqual(before);
    const key = 'client-chosen-key-0123456789';
    expect((await prepare({ page: '', key })).error).toBe(0);
    expect((await prepare({ page: '', key })).error).toBe(2121);
    expect((await take(key)).error).toBe(0);
  });

  it('expires keys', async () => {
    const db = t.app.database.db;
    const now = Date.now();
    const { key } = await prepareKey(
      db,
      { project, user: null, page: '', data: {} },
      now - PRINT_KEY_TTL_MS - 1,
    );
    await expect(takeKey(db, { project, user: null, key }, now)).rejects.toMatchObject({
      def: { code: 2120 },
    });
    // A later prepare clears expired rows.
    await prepareKey(db, { project, user: null, page: '', data: {} }, now);
    expect(
      await db.selectFrom('print_keys').select('key').where('key', '=', key).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('answers print data over the cap with 2122, nothing kept', async () => {
    const db = t.app.database.db;
    const data = [{ text: 'x'.repeat(600_000) }, { text: 'y'.repeat(600_000) }];
    await expect(prepareKey(db, { project, user: null, page: '', data: { data } })).rejects.toMatchObject({
      def: { code: 2122 },
    });
  });

  it('sheet/print: client mode answers one key per page; server mode without Chromium answers 2123', async () => {
    const url = `/api/app/util/${project}/sheet/print`;
    const client = await call<{ mode: string; items: Array<{ key: string; url: string }> }>(
      t.app,
      'POST',
      url,
      {
        token: owner,
        body: {
          pages: [{ page }, { page: '', print: { title: 'x' }, params: { id: 'r1' } }],
          option: { mode: 'client' },
        },
      },
    );
    expect(client.error).toBe(0);
    expect(client.data.items).toHaveLength(2);
    expect(client.data.items[1]!.url).toMatch(new RegExp(`^/app/${project}/print/-\\?id=r1&key=`));
    expect((await take(client.data.items[0]!.key)).data.page).toBe(page);
    const saved = process.env.CHROMIUM_PATH;
    process.env.CHROMIUM_PATH = '/nonexistent/chromium';
    try {
      const r = await call(t.app, 'POST', url, { token: owner, body: { pages: [{ page }] } });
      expect(r.error).toBe(2123);
      expect(r.status).toBe(501);
    } finally {
      if (saved === undefined) delete process.env.CHROMIUM_PATH;
      else process.env.CHROMIUM_PATH = saved;
    }
  });

  it("keeps the page's print option through publishing", async () => {
    const r = await call<{ document: { _option?: unknown } }>(
      t.app,
      'GET',
      `/api/admin/page/${project}/${page}`,
      {
        token: owner,
      },
    );
    expect(JSON.stringify(r.data)).toContain('from the page');
  });
});
