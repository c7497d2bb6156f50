/** Pages: builder calls, publishing and versions, end-user and display calls, preview, bad input. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetInstance } from '../../src/shared/page-document.ts';
import { loadPage, WIDGETS } from '../../widgets/index.ts';
import { pageWithEveryKind } from '../fixtures/pages.ts';
import { PWD, seedProject, seedRole, seedUser } from '../helpers/access.ts';
import { type Answer, call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

type Doc = Record<string, unknown> & { id: string; widgets: WidgetInstance[] };
interface Draft {
  _id: string;
  name: string;
  display: boolean;
  version: number | null;
  changed: boolean;
  versions: number;
  document: Doc;
}
interface AppPage {
  _id: string;
  version: number | null;
  preview: boolean;
  document: Doc;
  issues: unknown[];
}

describe.each(dialects)('pages on %s', (dialect) => {
  let t: TestApp;
  let owner: { id: string; account: string; token: string };
  let pid: string;
  let other: { id: string; token: string };
  let otherPid: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await seedUser(t.app);
    pid = (await seedProject(t.app, owner.id, { tier: 3 })).id;
    other = await seedUser(t.app);
    otherPid = (await seedProject(t.app, other.id, { tier: 3 })).id;
    // The every-kind page's data source names the table `order`: pages may name only their project's tables.
    const order = await call(t.app, 'POST', `/api/admin/project/${pid}/entity/create`, {
      token: owner.token,
      body: { name: 'Order', code: 'order' },
    });
    expect(order.error).toBe(0);
  });
  afterAll(async () => {
    await t?.close();
  });

  const adm = <T = unknown>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    token = owner.token,
    p = pid,
  ) =>
    call<T>(t.app, method, `/api/admin/page/${p}${path}`, { token, ...(body !== undefined ? { body } : {}) });
  const usr = <T = unknown>(method: 'GET' | 'POST', path: string, token?: string, body?: unknown, p = pid) =>
    call<T>(t.app, method, `/api/app/page/${p}${path}`, {
      ...(token ? { token } : {}),
      ...(body !== undefined ? { body } : {}),
    });
  const dp = <T = unknown>(path: string, token?: string, p = pid) =>
    call<T>(t.app, 'GET', `/api/app/dp/${p}${path}`, token ? { token } : {});
  const ok = <T>(a: Answer<T>): T => {
    expect(a.error, a.raw).toBe(0);
    return a.data;
  };
  const expectError = (a: Answer, code: number) => {
    expect(a.error, a.raw).toBe(code);
    expect(a.status).toBeLessThan(500);
  };
  /** Every page and version row, to prove a refused call stored nothing. */
  const rows = async () =>
    JSON.stringify([
      await t.app.database.db.selectFrom('pages').selectAll().orderBy('id').execute(),
      await t.app.database.db
        .selectFrom('page_versions')
        .selectAll()
        .orderBy('page_id')
        .orderBy('version')
        .execute(),
    ]);
  const create = async (name: string, extra: Record<string, unknown> = {}) =>
    ok(await adm<Draft>('POST', '/create', { name, ...extra }));

  /** A member signed in through the member calls, with a common role granted `pages`. */
  async function member(pages: string[], type: 'common' | 'admin' = 'common'): Promise<string> {
    const role = ok(
      await call<{ _id: string }>(t.app, 'POST', `/api/admin/auth/${pid}/main/role/create`, {
        token: owner.token,
        body: { name: `role${Math.random().toString(36).slice(2, 8)}`, type },
      }),
    );
    if (pages.length)
      ok(
        await call(t.app, 'POST', `/api/admin/auth/${pid}/main/role/${role._id}/bind`, {
          token: owner.token,
          body: { page: pages },
        }),
      );
    const account = `m${Date.now().toString(36).slice(-6)}${Math.random().toString(36).slice(2, 6)}`;
    ok(
      await call(t.app, 'POST', `/api/admin/user/${pid}/create`, {
        token: owner.token,
        body: { role: role._id, account, pwd: PWD, name: 'Member' },
      }),
    );
    const login = await call<{ token: string }>(t.app, 'POST', '/api/common/user/login', {
      body: { user: account, pwd: PWD },
    });
    return ok(login).token;
  }

  it('round trip: the every-kind page saves, publishes, reloads through the end-user call and deep-equals', async () => {
    const fixture = pageWithEveryKind(WIDGETS);
    const blank = await create('Every kind');
    expect(blank._id).toMatch(/^[0-9a-f]{24}$/);
    expect(blank.version).toBeNull();
    expect(blank.document.widgets).toEqual([]);

    const saved = ok(await adm<Draft>('POST', `/${blank._id}/update`, { document: fixture }));
    const expected = loadPage({ ...fixture, id: blank._id }).page;
    expect(saved.document).toEqual(expected);
    // Nothing in the fixture needs repair: what the designer saved is what loads.
    expect(expected).toEqual({ ...fixture, id: blank._id });

    const pub = ok(
      await adm<{ version: number; changed: boolean }>('POST', `/${blank._id}/publish`, { note: 'first' }),
    );
    expect(pub).toMatchObject({ version: 1, changed: false });

    const granted = await member([blank._id]);
    for (const token of [owner.token, granted]) {
      const got = ok(await usr<AppPage>('GET', `/${blank._id}`, token));
      expect(got.version).toBe(1);
      expect(got.preview).toBe(false);
      expect(got.issues).toEqual([]);
      expect(got.document).toEqual(saved.document);
    }
    // The designer's read answers the same draft.
    expect(ok(await adm<Draft>('GET', `/${blank._id}`)).document).toEqual(saved.document);
    // And the same document comes back when created in one call.
    const direct = await create('Every kind again', { document: fixture });
    expect(direct.document).toEqual({ ...fixture, id: direct._id });
  });

  it('an invalid document is refused with path and widget, and nothing is stored', async () => {
    const page = await create('Invalid');
    const before = await rows();
    const bad = pageWithEveryKind(WIDGETS);
    const target = bad.widgets.findIndex((w) => w.kind === 'text');
    bad.widgets[target]!.props.evil = '<script>alert(1)</script>';
    const a = await adm('POST', `/${page._id}/update`, { document: bad, name: 'Renamed' });
    expectError(a, 1203);
    expect(a.msg).toContain(`/widgets/${target}/props`);
    expect(a.msg).toContain(`widget ${bad.widgets[target]!.id}`);
    expect(a.msg).toContain('kind text');
    const created = await adm('POST', '/create', { name: 'Never', document: bad });
    expectError(created, 1203);
    // Wrong shapes of the document itself.
    for (const doc of [
      { ...bad, widgets: 'x' },
      { ...bad, layout: undefined },
      { ...bad, title: '' },
      { ...bad, extra: 1 },
      { ...bad, widgets: [{ ...bad.widgets[0], props: { ...bad.widgets[0]!.props }, kind: 5 }] },
    ]) {
      const r = await adm('POST', `/${page._id}/update`, { document: doc });
      expectError(r, 1203);
      expect(r.msg).toMatch(/\//);
    }
    expect(await rows()).toBe(before);
  });

  it('versions are numbered, listed, viewable and restorable; end users keep the published one', async () => {
    const page = await create('Versions');
    const doc = (title: string) => ({ ...page.document, title });
    ok(await adm('POST', `/${page._id}/update`, { document: doc('one') }));
    expect(
      ok(await adm<{ version: number }>('POST', `/${page._id}/publish`, { note: 'v one' })).version,
    ).toBe(1);
    ok(await adm('POST', `/${page._id}/update`, { document: doc('two') }));
    expect(ok(await adm<{ version: number }>('POST', `/${page._id}/publish`, {})).version).toBe(2);
    ok(await adm('POST', `/${page._id}/update`, { document: doc('draft three') }));

    const list = ok(
      await adm<
        {
          version: number;
          note: string;
          createdBy: string;
          createdByName: string;
          published: boolean;
          createdAt: number;
        }[]
      >('GET', `/${page._id}/versions`),
    );
    expect(list.map((v) => [v.version, v.note, v.published])).toEqual([
      [2, '', true],
      [1, 'v one', false],
    ]);
    expect(list[0]!.createdBy).toBe(owner.id);
    expect(list[0]!.createdByName).toBe(owner.account);
    expect(typeof list[0]!.createdAt).toBe('number');
    const v1 = ok(await adm<{ document: Doc }>('GET', `/${page._id}/version/1`));
    expect(v1.document.title).toBe('one');

    // The list shows publish state: changed since the last publish.
    const summary = ok(await adm<{ _id: string; version: number; changed: boolean }[]>('GET', '/')).find(
      (p) => p._id === page._id,
    );
    expect(summary).toMatchObject({ version: 2, changed: true });

    // End users see version 2, not the draft.
    expect(ok(await usr<AppPage>('GET', `/${page._id}`, owner.token)).document.title).toBe('two');

    const restored = ok(await adm<Draft>('POST', `/${page._id}/restore`, { version: 1 }));
    expect(restored.document.title).toBe('one');
    expect(ok(await adm<Draft>('GET', `/${page._id}`)).document.title).toBe('one');
    expect(ok(await usr<AppPage>('GET', `/${page._id}`, owner.token)).document.title).toBe('two');
    expect(
      ok(await adm<{ version: number }>('POST', `/${page._id}/publish`, { note: 'back to one' })).version,
    ).toBe(3);
    expect(ok(await usr<AppPage>('GET', `/${page._id}`, owner.token)).document.title).toBe('one');

    expectError(await adm('POST', `/${page._id}/restore`, { version: 99 }), 1602);
    expectError(await adm('GET', `/${page._id}/version/99`), 1602);
  });

  it('end users see only published, granted pages; unpublished is a coded error', async () => {
    const shown = await create('Shown');
    const hidden = await create('Hidden');
    const unpublished = await create('Unpublished');
    ok(await adm('POST', `/${shown._id}/publish`, { note: '' }));
    ok(await adm('POST', `/${hidden._id}/publish`, { note: '' }));
    const granted = await member([shown._id, unpublished._id]);
    const plain = await member([]);

    const listA = ok(await usr<{ _id: string }[]>('GET', '/', granted)).map((p) => p._id);
    expect(listA).toEqual([shown._id]);
    expect(ok(await usr<{ _id: string }[]>('GET', '/', plain))).toEqual([]);
    const ownerList = ok(await usr<{ _id: string }[]>('GET', '/', owner.token)).map((p) => p._id);
    expect(ownerList).toContain(shown._id);
    expect(ownerList).toContain(hidden._id);
    expect(ownerList).not.toContain(unpublished._id);

    ok(await usr('GET', `/${shown._id}`, granted));
    expectError(await usr('GET', `/${hidden._id}`, granted), 1102);
    expectError(await usr('GET', `/${shown._id}`, plain), 1102);
    expectError(await usr('GET', `/${unpublished._id}`, granted), 1600);
    expectError(await usr('GET', `/${shown._id}`), 1100);

    // Views and the batch call follow the same rules.
    const view = ok(
      await usr<{ vid: string; version: number; pc: unknown[]; mobile: unknown[] }>(
        'GET',
        `/view/${shown._id}`,
        granted,
      ),
    );
    expect(view).toMatchObject({ vid: shown._id, version: 1, pc: [], mobile: [] });
    expectError(await usr('GET', `/view/${hidden._id}`, granted), 1102);
    const batch = ok(
      await usr<Record<string, AppPage>>('POST', '/view/prepare', granted, {
        view: [shown._id, hidden._id, unpublished._id, shown._id, '0123456789abcdef01234567'],
      }),
    );
    expect(Object.keys(batch)).toEqual([shown._id]);
    expect(batch[shown._id]!.document.id).toBe(shown._id);
    expect(ok(await usr<Record<string, AppPage>>('POST', '/view/prepare', granted, { view: [] }))).toEqual(
      {},
    );

    // The page init call still answers a granted page.
    const init = await call<{ page: { _id: string; name: string } }>(
      t.app,
      'GET',
      `/api/common/app/${pid}/${shown._id}/init`,
      { token: granted },
    );
    expect(ok(init).page).toEqual({ _id: shown._id, name: 'Shown' });
  });

  it('preview answers the draft, to builders only (also on an expired project)', async () => {
    const page = await create('Preview');
    ok(await adm('POST', `/${page._id}/update`, { document: { ...page.document, title: 'draft' } }));
    const granted = await member([page._id]);
    const got = ok(await usr<AppPage>('GET', `/${page._id}?preview=1`, owner.token));
    expect(got).toMatchObject({ preview: true, version: null });
    expect(got.document.title).toBe('draft');
    expectError(await usr('GET', `/${page._id}?preview=1`, granted), 1102);
    expectError(await usr('GET', `/${page._id}?preview=1`), 1100);
    expectError(await usr('GET', `/${page._id}?preview=2`, owner.token), 1000);

    const expiredOwner = await seedUser(t.app);
    const expired = (await seedProject(t.app, expiredOwner.id, { tier: 3 })).id;
    const made = ok(await adm<Draft>('POST', '/create', { name: 'Late' }, expiredOwner.token, expired));
    await t.app.database.db
      .updateTable('projects')
      .set({ expired_at: Date.now() - 1000 })
      .where('id', '=', expired)
      .execute();
    expectError(await adm('POST', `/${made._id}/update`, { name: 'x' }, expiredOwner.token, expired), 104);
    ok(await usr('GET', `/${made._id}?preview=1`, expiredOwner.token, undefined, expired));
  });

  it('displays are pages with the display flag, with the same publishing and grants', async () => {
    const shown = await create('Board', { display: true });
    const plainPage = await create('Not a display');
    ok(await adm('POST', `/${shown._id}/publish`, { note: '' }));
    ok(await adm('POST', `/${plainPage._id}/publish`, { note: '' }));
    const granted = await member([shown._id, plainPage._id]);
    const list = ok(await dp<{ _id: string; display: boolean }[]>('/', granted));
    expect(list.map((d) => d._id)).toEqual([shown._id]);
    const one = ok(await dp<AppPage & { display: boolean }>(`/${shown._id}`, granted));
    expect(one).toMatchObject({ _id: shown._id, display: true, version: 1 });
    expect(ok(await dp<{ vid: string }>(`/view/${shown._id}`, granted)).vid).toBe(shown._id);
    expectError(await dp(`/${plainPage._id}`, granted), 1603);
    expectError(await dp(`/view/${plainPage._id}`, granted), 1603);
    expectError(await dp(`/${shown._id}`, await member([])), 1102);
    // Turning the flag off takes it out of the displays.
    ok(await adm('POST', `/${shown._id}/update`, { display: false }));
    expect(ok(await dp<unknown[]>('/', granted))).toEqual([]);
  });

  it('duplicate copies the draft unpublished; remove deletes the page and its versions', async () => {
    const src = await create('Source', { document: pageWithEveryKind(WIDGETS) });
    ok(await adm('POST', `/${src._id}/publish`, { note: 'x' }));
    const dup = ok(await adm<Draft>('POST', `/${src._id}/duplicate`));
    expect(dup._id).not.toBe(src._id);
    expect(dup.name).toBe('Source copy');
    expect(dup.version).toBeNull();
    expect(dup.document).toEqual({ ...src.document, id: dup._id });
    expect(ok(await adm<Draft>('POST', `/${src._id}/duplicate`, { name: 'Named' })).name).toBe('Named');

    // Roles, a role home and a menu entry name it; removing the page forgets it everywhere.
    const role = ok(
      await call<{ _id: string }>(t.app, 'POST', `/api/admin/auth/${pid}/main/role/create`, {
        token: owner.token,
        body: { name: 'Home here', type: 'common', home: { type: 'page', value: src._id } },
      }),
    );
    ok(
      await call(t.app, 'POST', `/api/admin/auth/${pid}/main/role/${role._id}/bind`, {
        token: owner.token,
        body: { page: [src._id, dup._id] },
      }),
    );
    const menu = ok(
      await call<{ _id: string }>(t.app, 'POST', `/api/admin/route/${pid}/create`, {
        token: owner.token,
        body: { type: 'page', name: 'Open source page', value: src._id },
      }),
    );
    expect(ok(await adm<{ _id: string }>('GET', `/${src._id}/remove`))._id).toBe(src._id);
    const roleRow = await t.app.database.db
      .selectFrom('roles')
      .select(['grants', 'home'])
      .where('id', '=', role._id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(roleRow.grants).page).toEqual([dup._id]);
    expect(roleRow.home).toBeNull();
    const menuRow = await t.app.database.db
      .selectFrom('routes')
      .select('value')
      .where('id', '=', menu._id)
      .executeTakeFirstOrThrow();
    expect(menuRow.value).toBeNull();
    // What the role shows can be saved back.
    ok(
      await call(t.app, 'POST', `/api/admin/auth/${pid}/main/role/${role._id}/bind`, {
        token: owner.token,
        body: { page: JSON.parse(roleRow.grants).page },
      }),
    );
    expectError(await adm('GET', `/${src._id}`), 1202);
    expectError(await usr('GET', `/${src._id}`, owner.token), 1202);
    const left = await t.app.database.db
      .selectFrom('page_versions')
      .select('version')
      .where('page_id', '=', src._id)
      .execute();
    expect(left).toEqual([]);
    expectError(await adm('GET', `/${src._id}/remove`), 1202);
  });

  it("another project's page ids are refused everywhere", async () => {
    const theirs = ok(await adm<Draft>('POST', '/create', { name: 'Theirs' }, other.token, otherPid));
    ok(await adm('POST', `/${theirs._id}/publish`, { note: '' }, other.token, otherPid));
    for (const [m, path, body] of [
      ['GET', `/${theirs._id}`, undefined],
      ['POST', `/${theirs._id}/update`, { name: 'mine' }],
      ['POST', `/${theirs._id}/duplicate`, {}],
      ['GET', `/${theirs._id}/remove`, undefined],
      ['POST', `/${theirs._id}/publish`, { note: '' }],
      ['GET', `/${theirs._id}/versions`, undefined],
      ['POST', `/${theirs._id}/restore`, { version: 1 }],
    ] as const) {
      expectError(await adm(m, path, body), 1202);
    }
    expectError(await usr('GET', `/${theirs._id}`, owner.token), 1202);
    expectError(await usr('GET', `/${theirs._id}?preview=1`, owner.token), 1202);
    expectError(await usr('GET', `/view/${theirs._id}`, owner.token), 1202);
    expectError(await dp(`/${theirs._id}`, owner.token), 1603);
    expect(ok(await usr('POST', '/view/prepare', owner.token, { view: [theirs._id] }))).toEqual({});
    // And the other project's builder cannot reach ours.
    const mine = await create('Mine');
    expectError(await adm('GET', `/${mine._id}`, undefined, other.token), 1201);
    expect(ok(await adm<Draft>('GET', `/${theirs._id}`, undefined, other.token, otherPid)).name).toBe(
      'Theirs',
    );
  });

  it('concurrent publishes get distinct numbers; sealed bodies carry documents too', async () => {
    const page = await create('Busy');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        adm<{ version: number }>('POST', `/${page._id}/publish`, { note: `n${i}` }),
      ),
    );
    expect(answers.map((a) => ok(a).version).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    const list = ok(await adm<{ version: number; published: boolean }[]>('GET', `/${page._id}/versions`));
    expect(list.map((v) => v.version)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(list.filter((v) => v.published).map((v) => v.version)).toEqual([6]);

    const fixture = pageWithEveryKind(WIDGETS);
    const sealed = await call<Draft>(t.app, 'POST', `/api/admin/page/${pid}/${page._id}/update`, {
      token: owner.token,
      body: { document: fixture },
      sealed: true,
    });
    expect(ok(sealed).document).toEqual({ ...fixture, id: page._id });
  });

  it('a public project serves granted published pages to anonymous callers', async () => {
    const pubOwner = await seedUser(t.app);
    const open = (await seedProject(t.app, pubOwner.id, { tier: 3, auth: 'public' })).id;
    const shown = ok(await adm<Draft>('POST', '/create', { name: 'Open' }, pubOwner.token, open));
    const closed = ok(await adm<Draft>('POST', '/create', { name: 'Closed' }, pubOwner.token, open));
    for (const p of [shown, closed])
      ok(await adm('POST', `/${p._id}/publish`, { note: '' }, pubOwner.token, open));
    await seedRole(t.app, open, 'public', { page: [shown._id] });
    expect(
      ok(await usr<{ _id: string }[]>('GET', '/', undefined, undefined, open)).map((p) => p._id),
    ).toEqual([shown._id]);
    expect(ok(await usr<AppPage>('GET', `/${shown._id}`, undefined, undefined, open)).version).toBe(1);
    expectError(await usr('GET', `/${closed._id}`, undefined, undefined, open), 1102);
    expectError(await usr('GET', `/${shown._id}?preview=1`, undefined, undefined, open), 1102);
  });

  it('old published documents migrate and broken widgets come back marked; pre-005 rows read as blank pages', async () => {
    const page = await create('Old');
    const layout = { pc: { x: 0, y: 0, w: 10, h: 4 }, mobile: { x: 0, y: 0, w: 10, h: 4 } };
    const old = {
      ...page.document,
      widgets: [
        { id: 's1', kind: 'switch', version: 1, props: { checked: true, size: 'default' }, layout },
        { id: 'x1', kind: 'no-such-kind', version: 1, props: { a: 1 }, layout },
      ],
    };
    // As an older server would have stored it.
    await t.app.database.db
      .updateTable('pages')
      .set({
        published: JSON.stringify(old),
        published_version: 1,
        last_version: 1,
        published_at: Date.now(),
      })
      .where('id', '=', page._id)
      .execute();
    const got = ok(await usr<AppPage>('GET', `/${page._id}`, owner.token));
    const [sw, unknown] = got.document.widgets;
    expect(sw).toMatchObject({
      id: 's1',
      kind: 'switch',
      version: 2,
      props: { value: 'true', size: 'routine' },
    });
    expect(sw!.broken).toBeUndefined();
    expect(unknown).toMatchObject({ id: 'x1', kind: 'no-such-kind', broken: true });
    expect(got.issues.length).toBeGreaterThan(0);

    const now = Date.now();
    const legacy = '0123456789abcdef01234567';
    await t.app.database.db
      .insertInto('pages')
      .values({ id: legacy, project_id: pid, name: 'Legacy', created_at: now, updated_at: now })
      .execute();
    const draft = ok(await adm<Draft>('GET', `/${legacy}`));
    expect(draft.document).toMatchObject({ id: legacy, title: 'Legacy', widgets: [] });
    ok(await adm('POST', `/${legacy}/publish`, { note: '' }));
    expect(ok(await usr<AppPage>('GET', `/${legacy}`, owner.token)).document).toEqual(draft.document);
  });

  it('builder calls: end users and anonymous callers are refused and change nothing; admin members may build', async () => {
    const page = await create('Guarded');
    ok(await adm('POST', `/${page._id}/publish`, { note: '' }));
    const granted = await member([page._id]);
    const before = await rows();
    const calls = [
      ['GET', '/', undefined],
      ['GET', `/${page._id}`, undefined],
      ['POST', '/create', { name: 'x' }],
      ['POST', `/${page._id}/update`, { name: 'x' }],
      ['POST', `/${page._id}/duplicate`, {}],
      ['GET', `/${page._id}/remove`, undefined],
      ['POST', `/${page._id}/publish`, { note: '' }],
      ['GET', `/${page._id}/versions`, undefined],
      ['GET', `/${page._id}/version/1`, undefined],
      ['POST', `/${page._id}/restore`, { version: 1 }],
    ] as const;
    for (const [m, path, body] of calls) {
      expectError(await adm(m, path, body, granted), 1102);
      expectError(
        await call(t.app, m, `/api/admin/page/${pid}${path}`, body !== undefined ? { body } : {}),
        1100,
      );
    }
    expect(await rows()).toBe(before);

    const builder = await member([], 'admin');
    const made = ok(await adm<Draft>('POST', '/create', { name: 'By admin' }, builder));
    ok(await adm('POST', `/${made._id}/publish`, { note: 'admin' }, builder));
    expect(ok(await usr<AppPage>('GET', `/${page._id}?preview=1`, builder)).preview).toBe(true);
    const versions = ok(
      await adm<{ createdByName: string }[]>('GET', `/${made._id}/versions`, undefined, builder),
    );
    expect(versions[0]!.createdByName).toBe('Member');
  });

  it('bad input gets coded errors, never 500', async () => {
    const page = await create('Bad input');
    const before = await rows();
    const cases: [Answer, number][] = [
      [await adm('POST', '/create', { name: 5 }), 1000],
      [await adm('POST', '/create', {}), 1000],
      [await adm('POST', '/create', { name: '' }), 1000],
      [await adm('POST', '/create', { name: '   ' }), 1112],
      [await adm('POST', '/create', { name: 'x', document: 'page' }), 1000],
      [await adm('POST', '/create', { name: 'x', document: [] }), 1000],
      [await adm('POST', '/create', { name: 'x', document: null }), 1000],
      [await adm('POST', `/${page._id}/update`, { document: 42 }), 1000],
      [await adm('POST', `/${page._id}/update`, { display: 'yes' }), 1000],
      [await adm('POST', `/${page._id}/restore`, { version: 'one' }), 1000],
      [await adm('POST', `/${page._id}/restore`, { version: 0 }), 1000],
      [await adm('POST', `/${page._id}/restore`, {}), 1000],
      [await adm('POST', `/${page._id}/publish`, { note: 7 }), 1000],
      [await adm('GET', '/not-an-id'), 1000],
      [await adm('GET', `/${page._id}/version/abc`), 1000],
      [await usr('POST', '/view/prepare', owner.token, { view: 'x' }), 1000],
      [await usr('POST', '/view/prepare', owner.token, { view: ['nope'] }), 1000],
      [await usr('POST', '/view/prepare', owner.token, { view: Array(101).fill(page._id) }), 1000],
      [await usr('GET', '/view/xyz', owner.token), 1000],
    ];
    for (const [a, code] of cases) expectError(a, code);

    const malformed = await t.app.inject({
      method: 'POST',
      url: `/api/admin/page/${pid}/${page._id}/update`,
      headers: { token: owner.token, 'content-type': 'application/json' },
      payload: '{"document": {',
    });
    expect(JSON.parse(malformed.body).error).toBe(1001);

    // Over the document limit (2 MB) but under the body limit: the page code.
    const big = { ...page.document, title: 'big', widgets: [] as unknown[] };
    const text = WIDGETS.find((w) => w.kind === 'text')!;
    big.widgets = [
      {
        id: 'big1',
        kind: 'text',
        version: text.version,
        props: { ...structuredClone(text.defaults), text: 'a'.repeat(2.5 * 1024 * 1024) },
        layout: { pc: { x: 0, y: 0, w: 10, h: 4 }, mobile: { x: 0, y: 0, w: 10, h: 4 } },
      },
    ];
    expectError(await adm('POST', `/${page._id}/update`, { document: big }), 1601);
    // Over the body limit: the request code.
    (big.widgets[0] as { props: { text: string } }).props.text = 'a'.repeat(5 * 1024 * 1024);
    expectError(await adm('POST', `/${page._id}/update`, { document: big }), 1002);

    expect(await rows()).toBe(before);
  });
});
