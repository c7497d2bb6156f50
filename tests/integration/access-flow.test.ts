/** Members, ban/kick/unban, child tokens, quota, invitations, public role, menus, and bad input. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, PWD, seedMember, seedPage, seedProject, seedRole, seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('access flows on %s', (dialect) => {
  let t: TestApp;
  let owner: { id: string; account: string; token: string };
  let pid: string;
  let roleId: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await seedUser(t.app);
    pid = (await seedProject(t.app, owner.id, { tier: 3 })).id;
    roleId = await seedRole(t.app, pid, 'common');
  });
  afterAll(async () => {
    await t?.close();
  });

  const login = (user: string, pwd = PWD) =>
    call<{ token: string }>(t.app, 'POST', '/api/common/user/login', { body: { user, pwd } });
  const init = (token?: string, project = pid) =>
    call(t.app, 'GET', `/api/common/app/${project}/init`, token ? { token } : {});
  const admin = <T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown, token = owner.token) =>
    call<T>(t.app, method, `/api/admin/user/${pid}${path}`, {
      token,
      ...(body !== undefined ? { body } : {}),
    });

  it('sub-user: create → login → ban (next call fails, login refused) → unban → login again', async () => {
    const created = await admin<{ _id: string; sub: boolean }>('POST', '/create', {
      role: roleId,
      account: 'subuser01',
      pwd: PWD,
      name: 'Sub One',
    });
    expect(created.error).toBe(0);
    expect(created.data.sub).toBe(true);
    const sub = await login('subuser01');
    expect(sub.error).toBe(0);
    expect((await init(sub.data.token)).error).toBe(0);

    expect((await admin('GET', `/${created.data._id}/ban`)).error).toBe(0);
    expect((await init(sub.data.token)).error).toBe(1101);
    expect((await login('subuser01')).error).toBe(1103);

    expect((await admin('GET', `/${created.data._id}/active`)).error).toBe(0);
    const again = await login('subuser01');
    expect(again.error).toBe(0);
    expect((await init(again.data.token)).error).toBe(0);
  });

  it('bound user: ban ends sessions and denies this project only; kick invalidates the token', async () => {
    const u = await seedUser(t.app);
    const bound = await admin<{ _id: string; sub: boolean }>('POST', '/bind', {
      role: roleId,
      account: u.account,
    });
    expect(bound.error).toBe(0);
    expect(bound.data.sub).toBe(false);
    expect((await init(u.token)).error).toBe(0);

    expect((await admin('GET', `/${u.id}/kick`)).error).toBe(0);
    expect((await init(u.token)).error).toBe(1101);
    const relog = await login(u.account);
    expect(relog.error).toBe(0);

    expect((await admin('GET', `/${u.id}/ban`)).error).toBe(0);
    expect((await init(relog.data.token)).error).toBe(1101);
    const third = await login(u.account);
    expect(third.error).toBe(0); // their own account is not ours to lock
    expect((await init(third.data.token)).error).toBe(1103);
    expect((await call(t.app, 'GET', '/api/common/user/userInfo', { token: third.data.token })).error).toBe(
      0,
    );
    const projects = await call<{ _id: string }[]>(t.app, 'GET', '/api/common/project/list', {
      token: third.data.token,
    });
    expect(projects.data.map((p) => p._id)).not.toContain(pid);

    expect((await admin('GET', `/${u.id}/active`)).error).toBe(0);
    expect((await init(third.data.token)).error).toBe(0);
  });

  it('child token acts as the sub-user in this project only and ends with the parent session', async () => {
    const parent = await login(owner.account);
    expect(parent.error).toBe(0);
    const created = await admin<{ _id: string }>('POST', '/create', {
      role: roleId,
      account: 'childuser1',
      pwd: PWD,
      name: 'Child',
    });
    const children = await admin<{ _id: string }[]>('GET', '/children');
    expect(children.data.map((c) => c._id)).toContain(created.data._id);
    const child = await admin<{ token: string; user: { _id: string } }>(
      'GET',
      `/${created.data._id}/token`,
      undefined,
      parent.data.token,
    );
    expect(child.error).toBe(0);
    expect(child.data.user._id).toBe(created.data._id);
    const me = await call<{ _id: string }>(t.app, 'GET', '/api/common/user/userInfo', {
      token: child.data.token,
    });
    expect(me.data._id).toBe(created.data._id);
    expect((await init(child.data.token)).error).toBe(0);
    // A common role cannot manage, and a child token cannot open another.
    expect((await admin('GET', `/${created.data._id}/token`, undefined, child.data.token)).error).toBe(1102);
    // Independent accounts cannot be acted as.
    const u = await seedUser(t.app);
    await seedMember(t.app, pid, u.id, 'common', roleId);
    expect((await admin('GET', `/${u.id}/token`)).error).toBe(1309);

    await call(t.app, 'GET', '/api/common/user/logout', { token: parent.data.token });
    expect((await init(child.data.token)).error).toBe(1101);
  });

  it('demoting an admin ends the child tokens they opened in the project', async () => {
    const adminRole = await seedRole(t.app, pid, 'admin');
    const adm = await seedUser(t.app);
    await seedMember(t.app, pid, adm.id, 'admin', adminRole);
    const sub = await admin<{ _id: string }>('POST', '/create', {
      role: roleId,
      account: 'childuser2',
      pwd: PWD,
      name: 'C2',
    });
    const child = await admin<{ token: string }>('GET', `/${sub.data._id}/token`, undefined, adm.token);
    expect(child.error).toBe(0);
    expect((await init(child.data.token)).error).toBe(0);
    expect((await admin('POST', `/${adm.id}/update`, { role: roleId })).error).toBe(0);
    expect((await init(child.data.token)).error).toBe(1101);
    expect((await init(adm.token)).error).toBe(0);
    // The same when the admin role itself becomes a common one.
    expect((await admin('POST', `/${adm.id}/update`, { role: adminRole })).error).toBe(0);
    const again = await admin<{ token: string }>('GET', `/${sub.data._id}/token`, undefined, adm.token);
    expect((await init(again.data.token)).error).toBe(0);
    const roleUpdate = await call(t.app, 'POST', `/api/admin/auth/${pid}/main/role/${adminRole}/update`, {
      token: owner.token,
      body: { type: 'common' },
    });
    expect(roleUpdate.error).toBe(0);
    expect((await init(again.data.token)).error).toBe(1101);
    expect((await call(t.app, 'GET', `/api/admin/project/${pid}`, { token: adm.token })).error).toBe(1102);
  });

  it('member quota by tier: over it the call answers 104 and nothing is created', async () => {
    const small = await seedProject(t.app, owner.id, { tier: 0 });
    const r = await seedRole(t.app, small.id, 'common');
    for (let i = 0; i < 4; i++) await seedMember(t.app, small.id, (await seedUser(t.app)).id, 'common', r);
    const outsider = await seedUser(t.app);
    const before = await digest(t.app);
    const create = await call(t.app, 'POST', `/api/admin/user/${small.id}/create`, {
      token: owner.token,
      body: { role: r, account: 'overquota1', pwd: PWD, name: 'Over' },
    });
    expect(create.error).toBe(104);
    const bind = await call(t.app, 'POST', `/api/admin/user/${small.id}/bind`, {
      token: owner.token,
      body: { role: r, account: outsider.account },
    });
    expect(bind.error).toBe(104);
    expect(await digest(t.app)).toBe(before);
    expect((await login('overquota1')).error).toBe(1104);
    const invite = await call<{ code: string }>(t.app, 'POST', `/api/admin/user/${small.id}/invite`, {
      token: owner.token,
      body: {},
    });
    const join = await call(t.app, 'POST', '/api/common/project/join', {
      token: outsider.token,
      body: { code: invite.data.code },
    });
    expect(join.error).toBe(104);
  });

  it('invitations: join by code or link while open and valid; closed or unknown is refused', async () => {
    const inv = await admin<{ _id: string; code: string; link: string; valid: boolean }>('POST', '/invite', {
      role: roleId,
      days: 2,
    });
    expect(inv.error).toBe(0);
    expect(inv.data.valid).toBe(true);
    const a = await seedUser(t.app);
    const b = await seedUser(t.app);
    const c = await seedUser(t.app);
    const joinA = await call<{ project: string; role: string }>(t.app, 'POST', '/api/common/project/join', {
      token: a.token,
      body: { code: inv.data.code.toLowerCase() },
    });
    expect(joinA.data).toEqual({ project: pid, role: roleId });
    expect((await init(a.token)).error).toBe(0);
    const again = await call(t.app, 'POST', '/api/common/project/join', {
      token: a.token,
      body: { code: inv.data.code },
    });
    expect(again.error).toBe(1304);
    const joinB = await call(t.app, 'POST', '/api/common/project/join', {
      token: b.token,
      body: { link: inv.data.link },
    });
    expect(joinB.error).toBe(0);
    expect((await admin('GET', `/invite/${inv.data._id}/close`)).error).toBe(0);
    const closed = await call(t.app, 'POST', '/api/common/project/join', {
      token: c.token,
      body: { code: inv.data.code },
    });
    expect(closed.error).toBe(1308);
    expect((await init(c.token)).error).toBe(1201);
    await t.app.database.db
      .updateTable('invitations')
      .set({ status: 'open', expires_at: Date.now() - 1 })
      .execute();
    const expired = await call(t.app, 'POST', '/api/common/project/join', {
      token: c.token,
      body: { link: inv.data.link },
    });
    expect(expired.error).toBe(1308);
    const both = await call(t.app, 'POST', '/api/common/project/join', { token: c.token, body: {} });
    expect(both.error).toBe(1112);
  });

  it('public role: activation lets anonymous callers in with its grants only; removal closes it', async () => {
    const p = await seedProject(t.app, owner.id, { tier: 3 });
    const base = `/api/admin/route/${p.id}`;
    const mk = async (body: unknown) =>
      (await call<{ _id: string }>(t.app, 'POST', `${base}/create`, { token: owner.token, body })).data._id;
    expect((await init(undefined, p.id)).error).toBe(1100);
    const open = await mk({ type: 'table', name: 'Open' });
    await mk({ type: 'table', name: 'Closed' });
    const pub = await call<{ _id: string; type: string }>(
      t.app,
      'GET',
      `/api/admin/auth/${p.id}/main/role/public`,
      {
        token: owner.token,
      },
    );
    expect(pub.data.type).toBe('public');
    await call(t.app, 'POST', `/api/admin/auth/${p.id}/main/role/${pub.data._id}/bind`, {
      token: owner.token,
      body: { route: [open] },
    });
    const anon = await init(undefined, p.id);
    expect(anon.error).toBe(0);
    expect((anon.data as { project: { role: string } }).project.role).toBe('public');
    const menus = await call<{ _id: string }[]>(t.app, 'GET', `/api/app/rt/${p.id}/list`);
    expect(menus.data.map((m) => m._id)).toEqual([open]);
    expect((await call(t.app, 'GET', `/api/admin/route/${p.id}/list`)).error).toBe(1100);
    await call(t.app, 'GET', `/api/admin/auth/${p.id}/main/role/${pub.data._id}/remove`, {
      token: owner.token,
    });
    expect((await init(undefined, p.id)).error).toBe(1100);
  });

  it('menus: create, nest, sort, bind rules, grants filter the end-user list', async () => {
    const p = await seedProject(t.app, owner.id, { tier: 3 });
    const base = `/api/admin/route/${p.id}`;
    const post = <T>(path: string, body: unknown, token = owner.token) =>
      call<T>(t.app, 'POST', `${base}${path}`, { token, body });
    const dir = (await post<{ _id: string }>('/create', { type: 'dir', name: 'Sales' })).data._id;
    const orders = (await post<{ _id: string }>('/create', { type: 'table', name: 'Orders', parent: dir }))
      .data._id;
    const items = (await post<{ _id: string }>('/create', { type: 'table', name: 'Items', parent: dir })).data
      ._id;
    const page = await seedPage(t.app, p.id);
    const pageMenu = (await post<{ _id: string }>('/create', { type: 'page', name: 'Board', value: page }))
      .data._id;
    expect((await post('/create', { type: 'page', name: 'Bad', value: 'nope' })).error).toBe(1202);
    expect((await post('/create', { type: 'table', name: 'X', parent: orders })).error).toBe(1307);
    expect((await post('/create', { type: 'table', name: '   ' })).error).toBe(1112);
    expect((await post(`/${dir}/bind`, { programs: ['p1'] })).error).toBe(1306);
    expect((await post(`/${pageMenu}/bind`, { programs: ['p1'] })).error).toBe(1306);
    const bound = await post<{ _program: string[] }>(`/${orders}/bind`, { programs: ['p1', 'p1', 'p2'] });
    expect(bound.data._program).toEqual(['p1', 'p2']);
    expect((await post(`/${orders}/update`, { type: 'page' })).error).toBe(1306);
    expect((await post(`/${dir}/update`, { parent: dir })).error).toBe(1307);
    expect((await post<{ _name: string }>(`/${items}/update`, { name: 'Lines' })).data._name).toBe('Lines');
    expect((await post('/sort', { routes: [pageMenu, items, orders, dir] })).error).toBe(0);

    const owned = await call<{ _id: string; _children: { _id: string }[] }[]>(
      t.app,
      'GET',
      `/api/app/rt/${p.id}/list`,
      {
        token: owner.token,
      },
    );
    expect(owned.data.map((n) => n._id)).toEqual([pageMenu, dir]);
    expect(owned.data[1]!._children.map((n) => n._id)).toEqual([items, orders]);

    const r = await seedRole(t.app, p.id, 'common', { route: [orders] });
    const u = await seedUser(t.app);
    await seedMember(t.app, p.id, u.id, 'common', r);
    const seen = await call<{ _id: string; _children: unknown[] }[]>(
      t.app,
      'GET',
      `/api/app/rt/${p.id}/list`,
      {
        token: u.token,
      },
    );
    // The directory is not granted: its granted entry is lifted to the top, the name of the directory stays hidden.
    expect(seen.data.map((n) => n._id)).toEqual([orders]);

    expect((await call(t.app, 'GET', `${base}/${dir}/remove`, { token: owner.token })).error).toBe(0);
    const flat = await call<{ _id: string; _parent: string | null }[]>(t.app, 'GET', `${base}/list`, {
      token: owner.token,
    });
    expect(flat.data.find((n) => n._id === orders)?._parent).toBeNull();
  });

  it('roles: create, update type syncs members, bind checks ids, remove detaches members', async () => {
    const base = `/api/admin/auth/${pid}/main/role`;
    const created = await call<{ _id: string; type: string }>(t.app, 'POST', `${base}/create`, {
      token: owner.token,
      body: { name: 'Builders', options: { apply: true } },
    });
    expect(created.data.type).toBe('common');
    const u = await seedUser(t.app);
    await seedMember(t.app, pid, u.id, 'common', created.data._id);
    expect((await call(t.app, 'GET', `/api/admin/project/${pid}`, { token: u.token })).error).toBe(1102);
    await call(t.app, 'POST', `${base}/${created.data._id}/update`, {
      token: owner.token,
      body: { type: 'admin' },
    });
    expect((await call(t.app, 'GET', `/api/admin/project/${pid}`, { token: u.token })).error).toBe(0);
    const list = await call<{ _id: string; _user: string[] }[]>(t.app, 'GET', `${base}/list`, {
      token: owner.token,
    });
    expect(list.data.find((r) => r._id === created.data._id)?._user).toEqual([u.id]);
    const bind = await call(t.app, 'POST', `${base}/${created.data._id}/bind`, {
      token: owner.token,
      body: { route: ['0123456789abcdef01234567'] },
    });
    expect(bind.error).toBe(1310);
    await call(t.app, 'GET', `${base}/${created.data._id}/remove`, { token: owner.token });
    expect((await call(t.app, 'GET', `/api/admin/project/${pid}`, { token: u.token })).error).toBe(1102);
    expect((await init(u.token)).error).toBe(0);
  });

  it('bad input on every access endpoint: coded error, never 500, nothing changed', async () => {
    const unknown = 'aaaaaaaaaaaaaaaaaaaaaaaa';
    const cases: [string, string, unknown?][] = [
      ['GET', `/api/admin/auth/${pid}/main/role/${unknown}/remove`],
      ['GET', `/api/admin/auth/not-an-id/main/role/list`],
      ['POST', `/api/admin/auth/${pid}/main/role/create`, { name: 5 }],
      ['POST', `/api/admin/auth/${pid}/main/role/create`, {}],
      ['POST', `/api/admin/auth/${pid}/main/role/create`, { name: 'x', type: 'public' }],
      ['POST', `/api/admin/auth/${pid}/main/role/${unknown}/update`, { name: 'x' }],
      [
        'POST',
        `/api/admin/auth/${pid}/main/role/${roleId}/update`,
        { home: { type: 'route', value: unknown } },
      ],
      ['POST', `/api/admin/auth/${pid}/main/role/${roleId}/bind`, { route: 'x' }],
      ['POST', `/api/admin/auth/${pid}/main/role/${roleId}/bind`, { page: [unknown] }],
      ['POST', `/api/admin/auth/${pid}/main/role/${roleId}/bind`, '[1,2'],
      ['POST', `/api/admin/user/${pid}/list`, { list: ['zz'] }],
      ['POST', `/api/admin/user/${pid}/create`, { role: roleId, account: '1bad', pwd: PWD, name: 'X' }],
      [
        'POST',
        `/api/admin/user/${pid}/create`,
        { role: roleId, account: 'goodname1', pwd: 'short', name: 'X' },
      ],
      ['POST', `/api/admin/user/${pid}/create`, { role: unknown, account: 'goodname1', pwd: PWD, name: 'X' }],
      [
        'POST',
        `/api/admin/user/${pid}/create`,
        { role: roleId, account: 'goodname1', pwd: PWD, name: 'X', phone: '12' },
      ],
      ['POST', `/api/admin/user/${pid}/bind`, { role: roleId, account: 'nobody_here' }],
      ['POST', `/api/admin/user/${pid}/bind`, { role: roleId }],
      ['GET', `/api/admin/user/${pid}/${unknown}/kick`],
      ['GET', `/api/admin/user/${pid}/${unknown}/ban`],
      ['GET', `/api/admin/user/${pid}/${unknown}/token`],
      ['GET', `/api/admin/user/${pid}/${owner.id}/token`],
      ['POST', `/api/admin/user/${pid}/${unknown}/update`, { role: roleId }],
      ['POST', `/api/admin/user/${pid}/invite`, { days: 0 }],
      ['POST', `/api/admin/user/${pid}/invite`, { role: unknown }],
      ['GET', `/api/admin/user/${pid}/invite/${unknown}/close`],
      ['POST', `/api/admin/route/${pid}/create`, { type: 'folder', name: 'x' }],
      ['POST', `/api/admin/route/${pid}/create`, { type: 'table', name: 'x', parent: unknown }],
      ['POST', `/api/admin/route/${pid}/${unknown}/update`, { name: 'x' }],
      ['POST', `/api/admin/route/${pid}/sort`, { routes: [unknown] }],
      ['POST', `/api/admin/route/${pid}/sort`, { routes: [] }],
      ['POST', `/api/admin/route/${pid}/${unknown}/bind`, { programs: ['x'] }],
      ['GET', `/api/admin/route/${pid}/${unknown}/remove`],
      ['GET', `/api/app/rt/${unknown}/list`],
      ['POST', '/api/common/project/join', { code: 'NOPE1234' }],
    ];
    const before = await digest(t.app);
    for (const [method, url, body] of cases) {
      const res = await t.app.inject({
        method: method as 'GET' | 'POST',
        url,
        headers: {
          token: owner.token,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      });
      const json = JSON.parse(res.body) as { error: number; msg?: string };
      expect(res.statusCode, `${method} ${url} ${res.body}`).toBeLessThan(500);
      expect(json.error, `${method} ${url}`).toBeGreaterThan(1);
      expect(typeof json.msg).toBe('string');
    }
    expect(await digest(t.app)).toBe(before);
  });
});
