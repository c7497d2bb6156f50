/** Menus in the workbench: targets of table and page entries, move by sort, removal keeps entries. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMember, seedPage, seedProject, seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

interface Menu {
  _id: string;
  _type: string;
  _name: string;
  _parent: string | null;
  _value: string | null;
  _sort: number;
}

describe.each(dialects)('menus on %s', (dialect) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let pid: string;
  let otherPid: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await seedUser(t.app);
    pid = (await seedProject(t.app, owner.id, { tier: 3 })).id;
    otherPid = (await seedProject(t.app, owner.id, { tier: 3 })).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = <T = Menu>(path: string, body: unknown, token = owner.token, p = pid) =>
    call<T>(t.app, 'POST', `/api/admin/route/${p}${path}`, { token, body });
  const list = async () =>
    (await call<Menu[]>(t.app, 'GET', `/api/admin/route/${pid}/list`, { token: owner.token })).data;
  const table = async (p: string, name: string) =>
    (
      await call<{ _id: string }>(t.app, 'POST', `/api/admin/project/${p}/entity/create`, {
        token: owner.token,
        body: { name },
      })
    ).data._id;

  it('a table entry points at a data table of this project only', async () => {
    const mine = await table(pid, 'Orders');
    const theirs = await table(otherPid, 'Foreign');
    const ok = await post('/create', { type: 'table', name: 'Orders', value: mine });
    expect(ok.error).toBe(0);
    expect(ok.data._value).toBe(mine);
    const before = (await list()).length;
    expect((await post('/create', { type: 'table', name: 'X', value: theirs })).error).toBe(1400);
    expect(
      (await post('/create', { type: 'table', name: 'X', value: '0123456789abcdef01234567' })).error,
    ).toBe(1400);
    expect((await list()).length).toBe(before);
    // A changed value is checked; the entry keeps its old one.
    expect((await post(`/${ok.data._id}/update`, { value: theirs })).error).toBe(1400);
    expect((await list()).find((m) => m._id === ok.data._id)?._value).toBe(mine);
    // The table's code names it too (the data calls take id or code), but only in its own project.
    const code = (
      await call<{ _code: string }[]>(t.app, 'GET', `/api/admin/project/${pid}/entity`, {
        token: owner.token,
      })
    ).data.find((e) => (e as unknown as { _id: string })._id === mine)!._code;
    expect((await post('/create', { type: 'table', name: 'By code', value: code })).error).toBe(0);
    const foreignCode = (
      await call<{ _id: string; _code: string }[]>(t.app, 'GET', `/api/admin/project/${otherPid}/entity`, {
        token: owner.token,
      })
    ).data.find((e) => e._id === theirs)!._code;
    if (foreignCode !== code)
      expect((await post('/create', { type: 'table', name: 'X', value: foreignCode })).error).toBe(1400);
  });

  it('a page entry picks a page; a rename is not blocked by a target removed since', async () => {
    const tid = await table(pid, 'Temp');
    const page = await seedPage(t.app, pid);
    const m = (await post('/create', { type: 'page', name: 'Board', value: page })).data;
    expect(m._value).toBe(page);
    const tm = (await post('/create', { type: 'table', name: 'Temp', value: tid })).data;
    const removed = await call(t.app, 'GET', `/api/admin/project/${pid}/entity/${tid}/remove?confirm=1`, {
      token: owner.token,
    });
    expect(removed.error).toBe(0);
    const renamed = await post(`/${tm._id}/update`, { name: 'Old temp' });
    expect(renamed.error).toBe(0);
    expect(renamed.data._name).toBe('Old temp');
    // Switching a page entry to a table one checks the value against tables.
    expect((await post(`/${m._id}/update`, { type: 'table' })).error).toBe(1400);
    expect((await list()).find((x) => x._id === m._id)?._type).toBe('page');
  });

  it('moving up swaps two neighbours through sort; removal keeps the tables and lifts the entries', async () => {
    const dir = (await post('/create', { type: 'dir', name: 'Sales' })).data._id;
    const tid = await table(pid, 'Lines');
    const child = (await post('/create', { type: 'table', name: 'Lines', parent: dir, value: tid })).data._id;
    const order = (await list()).map((m) => m._id);
    const i = order.indexOf(dir);
    const moved = [...order];
    [moved[i - 1], moved[i]] = [moved[i]!, moved[i - 1]!];
    expect((await post('/sort', { routes: moved })).error).toBe(0);
    expect((await list()).map((m) => m._id)).toEqual(moved);

    expect(
      (await call(t.app, 'GET', `/api/admin/route/${pid}/${dir}/remove`, { token: owner.token })).error,
    ).toBe(0);
    const after = await list();
    expect(after.find((m) => m._id === dir)).toBeUndefined();
    expect(after.find((m) => m._id === child)?._parent).toBeNull();
    const tables = await call<{ _id: string }[]>(t.app, 'GET', `/api/admin/project/${pid}/entity`, {
      token: owner.token,
    });
    expect(tables.data.map((e) => e._id)).toContain(tid);
  });

  it('only builders of the project may manage its menus', async () => {
    const member = await seedUser(t.app);
    await seedMember(t.app, pid, member.id, 'common', null);
    const stranger = await seedUser(t.app);
    const before = await list();
    // A member without the admin role is refused; a stranger does not see the project at all.
    expect((await post('/create', { type: 'dir', name: 'Nope' }, member.token)).error).toBe(1102);
    expect((await post('/create', { type: 'dir', name: 'Nope' }, stranger.token)).error).toBe(1201);
    expect((await post(`/${before[0]!._id}/update`, { name: 'Nope' }, member.token)).error).toBe(1102);
    expect(await list()).toEqual(before);
  });
});
