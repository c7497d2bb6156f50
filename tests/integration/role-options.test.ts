/**
 * Role options acted on (apply, enable, reg), and the user object's role, owner, auth and wechat
 * flag. Every refusal is coded and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, PWD, seedMember, seedProject, seedUser } from '../helpers/access.ts';
import { call, createTestApp, requestCode, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('role options on %s', (dialect) => {
  let t: TestApp;
  let owner: { id: string; account: string; token: string };
  let pid: string;
  let otherPid: string;
  let regRole: string;
  let enableRole: string;
  let applyRole: string;
  let closedRole: string;
  let otherRole: string;
  let phoneSeq = 0;

  const role = (path: string, body?: unknown, token = owner.token, project = pid) =>
    call<Record<string, unknown>>(
      t.app,
      body === undefined ? 'GET' : 'POST',
      `/api/admin/auth/${project}/main/role${path}`,
      {
        token,
        ...(body !== undefined ? { body } : {}),
      },
    );
  const common = <T = unknown>(path: string, token?: string, body?: unknown) =>
    call<T>(t.app, body === undefined ? 'GET' : 'POST', `/api/common/project/${pid}${path}`, {
      ...(token ? { token } : {}),
      ...(body !== undefined ? { body } : {}),
    });
  const applies = <T = unknown>(path: string, token = owner.token) =>
    call<T>(t.app, 'GET', `/api/admin/user/${pid}/apply${path}`, { token });
  const memberRow = (userId: string, project = pid) =>
    t.app.database.db
      .selectFrom('project_members')
      .selectAll()
      .where('project_id', '=', project)
      .where('user_id', '=', userId)
      .executeTakeFirst();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await seedUser(t.app);
    pid = (await seedProject(t.app, owner.id, { tier: 3 })).id;
    otherPid = (await seedProject(t.app, owner.id, { tier: 3 })).id;
    const make = async (name: string, options: Record<string, boolean>, project = pid) => {
      const r = await role('/create', { name, options }, owner.token, project);
      expect(r.error).toBe(0);
      return r.data._id as string;
    };
    regRole = await make('Visitor', { reg: true });
    enableRole = await make('Reviewer', { enable: true });
    applyRole = await make('Editor', { apply: true });
    closedRole = await make('Closed', {});
    otherRole = await make('Elsewhere', { reg: true, enable: true, apply: true }, otherPid);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('admin roles cannot be opened for switching or registration (1112); nothing changed', async () => {
    const before = await digest(t.app);
    expect((await role('/create', { name: 'Boss', type: 'admin', options: { reg: true } })).error).toBe(1112);
    expect((await role('/create', { name: 'Boss', type: 'admin', options: { enable: true } })).error).toBe(
      1112,
    );
    expect((await role(`/${enableRole}/update`, { type: 'admin' })).error).toBe(1112);
    expect((await role(`/${closedRole}/update`, { type: 'admin', options: { reg: true } })).error).toBe(1112);
    expect(await digest(t.app)).toBe(before);
    // apply stays possible on admin roles: a manager decides.
    const boss = await role('/create', { name: 'Boss', type: 'admin', options: { apply: true } });
    expect(boss.error).toBe(0);
    expect((await role(`/${boss.data._id}/remove`)).error).toBe(0);
  });

  async function register(user: string, roleId: string | null) {
    const phone = `1390000${String(++phoneSeq).padStart(4, '0')}`;
    const verify = await requestCode(t.app, phone, 'reg');
    return call<{ user: { _id: string } }>(t.app, 'POST', '/api/common/user/reg', {
      body: {
        user,
        pwd: PWD,
        phone,
        verify,
        nickname: 'Joiner',
        project: pid,
        ...(roleId ? { role: roleId } : {}),
      },
    });
  }

  it('reg: registration joins a role whose reg option is on, and no other', async () => {
    const before = await digest(t.app);
    expect((await register('closed01', closedRole)).error).toBe(1102);
    expect((await register('other001', otherRole)).error).toBe(1102);
    // Without a role, registration needs the project's own reg config.
    expect((await register('norole01', null)).error).toBe(1102);
    expect(await digest(t.app)).toBe(before);
    const r = await register('visitor1', regRole);
    expect(r.error).toBe(0);
    const m = await memberRow(r.data.user._id);
    expect(m).toMatchObject({ role_id: regRole, role_type: 'common', status: 'active' });
    // Turning the option off closes the door again.
    expect((await role(`/${regRole}/update`, { options: { reg: false } })).error).toBe(0);
    expect((await register('visitor2', regRole)).error).toBe(1102);
    expect((await role(`/${regRole}/update`, { options: { reg: true } })).error).toBe(0);
  });

  it('open roles: anonymous see reg roles, members enable and apply roles', async () => {
    const anon = await common<{ roles: { _id: string }[] }>('/roles/open');
    expect(anon.error).toBe(0);
    expect(anon.data.roles.map((r) => r._id)).toEqual([regRole]);
    const u = await seedUser(t.app);
    await seedMember(t.app, pid, u.id, 'common', closedRole);
    const mine = await common<{ roles: { _id: string }[]; member: boolean }>('/roles/open', u.token);
    expect(mine.data.member).toBe(true);
    expect(mine.data.roles.map((r) => r._id).sort()).toEqual([enableRole, applyRole].sort());
    const outsider = await seedUser(t.app);
    const theirs = await common<{ roles: { _id: string }[] }>('/roles/open', outsider.token);
    expect(theirs.data.roles.map((r) => r._id).sort()).toEqual([regRole, applyRole].sort());
    expect((await call(t.app, 'GET', `/api/common/project/${'f'.repeat(24)}/roles/open`)).error).toBe(1200);
  });

  it('enable: a member switches to an enable role; refusals are coded and change nothing', async () => {
    const u = await seedUser(t.app);
    await seedMember(t.app, pid, u.id, 'common', closedRole);
    const before = await digest(t.app);
    expect((await common('/role/switch', u.token, { role: applyRole })).error).toBe(1320);
    expect((await common('/role/switch', u.token, { role: otherRole })).error).toBe(1300);
    expect((await common('/role/switch', u.token, { role: 'not-an-id' })).error).toBe(1000);
    expect((await common('/role/switch', owner.token, { role: enableRole })).error).toBe(1305);
    const outsider = await seedUser(t.app);
    expect((await common('/role/switch', outsider.token, { role: enableRole })).error).toBe(1201);
    expect((await common('/role/switch', undefined, { role: enableRole })).error).toBe(1100);
    const banned = await seedUser(t.app);
    await seedMember(t.app, pid, banned.id, 'common', closedRole, 'disabled');
    const b4 = await digest(t.app);
    expect((await common('/role/switch', banned.token, { role: enableRole })).error).toBe(1103);
    expect(await digest(t.app)).toBe(b4);
    expect(b4).not.toBe(before);

    const ok = await common<{ role: string }>('/role/switch', u.token, { role: enableRole });
    expect(ok.error).toBe(0);
    expect((await memberRow(u.id))?.role_id).toBe(enableRole);
    const info = await call<{ role: { _id: string; name: string } | null; auth: string }>(
      t.app,
      'GET',
      `/api/common/user/userInfo?project=${pid}`,
      { token: u.token },
    );
    expect(info.data.role).toMatchObject({ _id: enableRole, name: 'Reviewer' });
    expect(info.data.auth).toBe('common');
  });

  it('apply: an outsider applies, a manager approves; members and others cannot decide', async () => {
    const outsider = await seedUser(t.app);
    const before = await digest(t.app);
    expect((await common('/role/apply', outsider.token, { role: closedRole })).error).toBe(1320);
    expect((await common('/role/apply', outsider.token, { role: otherRole })).error).toBe(1300);
    expect(
      (await common('/role/apply', outsider.token, { role: applyRole, note: 'x'.repeat(201) })).error,
    ).toBe(1000);
    expect(await digest(t.app)).toBe(before);
    const a = await common<{ _id: string; status: string }>('/role/apply', outsider.token, {
      role: applyRole,
      note: 'please',
    });
    expect(a.error).toBe(0);
    expect(a.data.status).toBe('pending');
    const open = await common<{ pending: string | null }>('/roles/open', outsider.token);
    expect(open.data.pending).toBe(applyRole);

    // A member without management rights cannot list or decide.
    const clerk = await seedUser(t.app);
    await seedMember(t.app, pid, clerk.id, 'common', closedRole);
    expect((await applies('/list', clerk.token)).error).toBe(1102);
    expect((await applies(`/${a.data._id}/approve`, clerk.token)).error).toBe(1102);
    // Another project's manager cannot reach it, even naming their own project.
    const stranger = await seedUser(t.app);
    const theirs = (await seedProject(t.app, stranger.id, { tier: 3 })).id;
    expect(
      (
        await call(t.app, 'GET', `/api/admin/user/${theirs}/apply/${a.data._id}/approve`, {
          token: stranger.token,
        })
      ).error,
    ).toBe(1321);
    expect((await memberRow(outsider.id)) ?? null).toBeNull();

    const list =
      await applies<{ _id: string; status: string; roleName: string; note: string }[]>(
        '/list?status=pending',
      );
    expect(list.data).toEqual([
      expect.objectContaining({ _id: a.data._id, roleName: 'Editor', note: 'please' }),
    ]);
    expect((await applies(`/${a.data._id}/approve`)).error).toBe(0);
    expect(await memberRow(outsider.id)).toMatchObject({ role_id: applyRole, role_type: 'common' });
    expect((await applies(`/${a.data._id}/approve`)).error).toBe(1322);
    expect((await applies(`/${a.data._id}/reject`)).error).toBe(1322);
    expect((await applies(`/${'e'.repeat(24)}/approve`)).error).toBe(1321);

    // A rejected application leaves the applicant outside.
    const second = await seedUser(t.app);
    const b = await common<{ _id: string }>('/role/apply', second.token, { role: applyRole });
    expect((await applies(`/${b.data._id}/reject`)).error).toBe(0);
    expect((await memberRow(second.id)) ?? null).toBeNull();
  });

  it('the user object carries owner, wechat, and role and auth for a named project', async () => {
    const login = await call<{ user: Record<string, unknown> }>(t.app, 'POST', '/api/common/user/login', {
      body: { user: owner.account, pwd: PWD, project: pid },
    });
    expect(login.error).toBe(0);
    expect(login.data.user).toMatchObject({ owner: null, wechat: false, role: null, auth: 'owner' });
    const sub = await seedUser(t.app, { parentId: owner.id });
    await seedMember(t.app, pid, sub.id, 'common', applyRole);
    const info = await call<Record<string, unknown>>(
      t.app,
      'GET',
      `/api/common/user/userInfo?project=${pid}`,
      {
        token: sub.token,
      },
    );
    expect(info.data).toMatchObject({
      owner: owner.id,
      auth: 'common',
      role: { _id: applyRole, name: 'Editor', type: 'common', home: null },
    });
    const none = await call<Record<string, unknown>>(
      t.app,
      'GET',
      `/api/common/user/userInfo?project=${otherPid}`,
      {
        token: sub.token,
      },
    );
    expect(none.data).toMatchObject({ role: null, auth: null });
    const plain = await call<Record<string, unknown>>(t.app, 'GET', '/api/common/user/userInfo', {
      token: sub.token,
    });
    expect(plain.data).toMatchObject({ role: null, auth: null, owner: owner.id });
    expect(
      (await call(t.app, 'GET', '/api/common/user/userInfo?project=zz', { token: sub.token })).error,
    ).toBe(1000);
  });
});
