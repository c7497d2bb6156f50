/**
 * End-user data views on the server: saved filters (private, public, project) through the share
 * store, checked against the fields the caller sees; the role default filter applied to every read
 * (rows, statistics, export, picker search); statistics over the whole filtered set. Bad input gets
 * a coded error and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E } from '../../src/server/errors.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

interface Saved {
  id: string;
  name: string;
  type: string;
  filter: { conditions: { field: string; opt: string; value?: unknown }[]; match: string };
  stale?: { field: string; opt: string; value?: unknown; reason: string }[];
}

describe.each(dialects)('data views on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let clerk: string;
  let clerk2: string;
  let project: string;
  let roleId: string;
  const viewUrl = () => `/api/app/view/${project}/item`;
  const list = (token: string) =>
    call<{ filters: Saved[]; role: Saved['filter'] | null }>(t.app, 'POST', `${viewUrl()}/filters`, {
      token,
      body: {},
    });
  const save = (token: string, body: unknown) =>
    call<Saved>(t.app, 'POST', `${viewUrl()}/filters/save`, { token, body });
  const byQty = { conditions: [{ field: 'qty', opt: 'gt', value: 2 }], match: 'and' };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, {
      user: 'dvowner1',
      pwd: 'abc12345',
      phone: '13600000091',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'DV' },
      })
    ).data._id;
    const P = `/api/admin/project/${project}`;
    const entity = await call<{ _id: string }>(t.app, 'POST', `${P}/entity/create`, {
      token: owner,
      body: { name: 'Item', code: 'item' },
    });
    await call(t.app, 'POST', `${P}/entity/create`, { token: owner, body: { name: 'Other', code: 'other' } });
    for (const [name, type, field, extra] of [
      ['Name', 'string', 'name', {}],
      ['Kind', 'string', 'kind', {}],
      ['Qty', 'number', 'qty', {}],
      ['Secret', 'string', 'secret', { hide: true }],
    ] as const) {
      const r = await call(t.app, 'POST', `${P}/item/field/create`, {
        token: owner,
        body: { name, type, field, ...extra },
      });
      expect(r.error, r.raw).toBe(0);
    }
    for (let i = 1; i <= 6; i++) {
      const r = await call(t.app, 'POST', `/api/admin/data/${project}/item/save`, {
        token: owner,
        body: { name: `n${i}`, kind: i % 2 ? 'odd' : 'even', qty: i, secret: `s${i}` },
      });
      expect(r.error, r.raw).toBe(0);
    }
    const A = `/api/admin/auth/${project}/main/role`;
    roleId = (
      await call<{ _id: string }>(t.app, 'POST', `${A}/create`, { token: owner, body: { name: 'Clerk' } })
    ).data._id;
    await call(t.app, 'POST', `${A}/${roleId}/bind`, { token: owner, body: { entity: [entity.data._id] } });
    const tokens: string[] = [];
    for (const account of ['dvclerk01', 'dvclerk02']) {
      const u = await call(t.app, 'POST', `/api/admin/user/${project}/create`, {
        token: owner,
        body: { role: roleId, account, pwd: 'abc12345', name: account },
      });
      expect(u.error, u.raw).toBe(0);
      tokens.push(
        (
          await call<{ token: string }>(t.app, 'POST', '/api/common/user/login', {
            body: { user: account, pwd: 'abc12345' },
          })
        ).data.token,
      );
    }
    [clerk, clerk2] = tokens as [string, string];
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps private filters to their owner; public and project ones are seen by all', async () => {
    const mine = await save(clerk, { name: 'Mine', type: 'private', filter: byQty });
    expect(mine.error, mine.raw).toBe(0);
    const pub = await save(clerk, { name: 'Shared', type: 'public', filter: byQty });
    expect(pub.error, pub.raw).toBe(0);
    // Project filters are the builders' (access/decide.ts); an end user is refused.
    expect((await save(clerk, { name: 'Proj', type: 'project', filter: byQty })).error).toBe(
      E.FORBIDDEN.code,
    );
    const proj = await save(owner, { name: 'Proj', type: 'project', filter: byQty });
    expect(proj.error, proj.raw).toBe(0);
    const first = (await list(clerk)).data.filters.map((f) => `${f.type}:${f.name}`);
    expect(first).toEqual(['private:Mine', 'public:Shared', 'project:Proj']);
    const second = (await list(clerk2)).data.filters.map((f) => `${f.type}:${f.name}`);
    expect(second).toEqual(['public:Shared', 'project:Proj']);
    // Another user's private filter id is not found for them, and cannot be changed or removed.
    const steal = await save(clerk2, { id: mine.data.id, name: 'x', type: 'private', filter: byQty });
    expect(steal.error).toBe(E.VIEW_FILTER_NOT_FOUND.code);
    const drop = await call(t.app, 'POST', `${viewUrl()}/filters/remove`, {
      token: clerk2,
      body: { id: mine.data.id, type: 'private' },
    });
    expect(drop.error).toBe(E.VIEW_FILTER_NOT_FOUND.code);
    // Nor may they rename another's public one.
    const rename = await save(clerk2, { id: pub.data.id, name: 'Mine now', type: 'public', filter: byQty });
    expect(rename.error).toBe(E.FORBIDDEN.code);
    expect((await list(clerk)).data.filters.map((f) => f.name)).toEqual(['Mine', 'Shared', 'Proj']);
  });

  it('renames, moves between types, copies and removes', async () => {
    const f = await save(clerk, { name: 'Draft', type: 'private', filter: byQty });
    const renamed = await save(clerk, { id: f.data.id, name: 'Final', type: 'private', filter: byQty });
    expect(renamed.data).toMatchObject({ id: f.data.id, name: 'Final' });
    const moved = await save(clerk, {
      id: f.data.id,
      name: 'Final',
      type: 'public',
      from: 'private',
      filter: byQty,
    });
    expect(moved.error, moved.raw).toBe(0);
    const copy = await save(clerk, { name: 'Final (copy)', type: 'private', filter: moved.data.filter });
    expect(copy.data.id).not.toBe(f.data.id);
    let names = (await list(clerk2)).data.filters.map((x) => x.name);
    expect(names).toContain('Final');
    const rm = await call(t.app, 'POST', `${viewUrl()}/filters/remove`, {
      token: clerk,
      body: { id: f.data.id, type: 'public' },
    });
    expect(rm.error, rm.raw).toBe(0);
    names = (await list(clerk2)).data.filters.map((x) => x.name);
    expect(names).not.toContain('Final');
  });

  it('refuses filters naming hidden or unknown fields, bad operators, and tables not granted', async () => {
    const before = (await list(clerk)).data.filters.length;
    const hidden = await save(clerk, {
      name: 'H',
      type: 'private',
      filter: { conditions: [{ field: 'secret', opt: 'eq', value: 's1' }], match: 'and' },
    });
    expect(hidden.error).toBe(E.VIEW_FILTER_FIELD.code);
    const unknown = await save(clerk, {
      name: 'U',
      type: 'private',
      filter: { conditions: [{ field: 'nope', opt: 'eq', value: 1 }], match: 'and' },
    });
    expect(unknown.error).toBe(E.VIEW_FILTER_FIELD.code);
    const badOp = await save(clerk, {
      name: 'B',
      type: 'private',
      filter: { conditions: [{ field: 'qty', opt: 'contain', value: 'x' }], match: 'and' },
    });
    expect(badOp.error).toBe(E.VIEW_FILTER_INVALID.code);
    const shape = await save(clerk, { name: 'S', type: 'private', filter: { conditions: 'all' } });
    expect(shape.error).toBe(E.VIEW_FILTER_INVALID.code);
    expect((await list(clerk)).data.filters.length).toBe(before);
    // The owner (a manager) sees the hidden field and may filter on it.
    const ownerHidden = await save(owner, {
      name: 'H',
      type: 'private',
      filter: { conditions: [{ field: 'secret', opt: 'eq', value: 's1' }], match: 'and' },
    });
    expect(ownerHidden.error, ownerHidden.raw).toBe(0);
    // A table the role is not granted.
    const other = await call(t.app, 'POST', `/api/app/view/${project}/other/filters`, {
      token: clerk,
      body: {},
    });
    expect(other.error).toBe(E.FORBIDDEN.code);
    const otherSum = await call(t.app, 'POST', `/api/app/simple/${project}/other/summary`, {
      token: clerk,
      body: { summary: { metrics: [{ fn: 'count' }] } },
    });
    expect(otherSum.error).toBe(E.FORBIDDEN.code);
  });

  it('sums over the whole filtered set, grouped, never a page', async () => {
    const r = await call<{
      total: Record<string, number>;
      groups: { key: unknown[]; values: Record<string, number> }[];
    }>(t.app, 'POST', `/api/app/simple/${project}/item/summary`, {
      token: clerk,
      body: {
        query: { field: 'qty', type: 'number', opt: 'gt', value: 1 },
        page: { index: 1, size: 1 },
        summary: { group: ['kind'], metrics: [{ fn: 'count' }, { fn: 'sum', field: 'qty' }] },
      },
    });
    expect(r.error, r.raw).toBe(0);
    expect(Object.values(r.data.total)).toEqual([5, 20]);
    expect(r.data.groups.map((g) => [g.key[0], ...Object.values(g.values)])).toEqual([
      ['even', 3, 12],
      ['odd', 2, 8],
    ]);
    const hidden = await call(t.app, 'POST', `/api/app/simple/${project}/item/summary`, {
      token: clerk,
      body: { summary: { metrics: [{ fn: 'sum', field: 'secret' }] } },
    });
    expect(hidden.error).not.toBe(0);
  });

  it("applies the role's default filter to rows, statistics and pickers; the user cannot lift it", async () => {
    const set = await call(t.app, 'POST', `/api/admin/view/${project}/item/role-filter`, {
      token: owner,
      body: {
        role: roleId,
        filter: { conditions: [{ field: 'kind', opt: 'eq', value: 'odd' }], match: 'and' },
      },
    });
    expect(set.error, set.raw).toBe(0);
    // End users may not set it; unknown roles are refused.
    const byClerk = await call(t.app, 'POST', `/api/admin/view/${project}/item/role-filter`, {
      token: clerk,
      body: { role: roleId, filter: null },
    });
    expect(byClerk.error).not.toBe(0);
    const noRole = await call(t.app, 'POST', `/api/admin/view/${project}/item/role-filter`, {
      token: owner,
      body: { role: '0123456789abcdef01234567', filter: null },
    });
    expect(noRole.error).toBe(E.VIEW_ROLE_UNKNOWN.code);
    const rows = await call<{ data: { name: string }[]; count: number }>(
      t.app,
      'POST',
      `/api/app/simple/${project}/item/query`,
      {
        token: clerk,
        // Asking for the even rows explicitly still gets only the role's odd ones.
        body: {
          query: {
            $or: [
              { field: 'kind', type: 'text', opt: 'eq', value: 'even' },
              { field: 'qty', type: 'number', opt: 'gt', value: 0 },
            ],
          },
          count: true,
        },
      },
    );
    expect(rows.data.count).toBe(3);
    expect((await list(clerk)).data.role?.conditions[0]).toMatchObject({ field: 'kind', value: 'odd' });
    const sum = await call<{ total: Record<string, number> }>(
      t.app,
      'POST',
      `/api/app/simple/${project}/item/summary`,
      {
        token: clerk,
        body: { summary: { metrics: [{ fn: 'count' }] } },
      },
    );
    expect(Object.values(sum.data.total)).toEqual([3]);
    const pick = await call<{ data: unknown[] }>(t.app, 'POST', `/api/d/${project}/item/filter`, {
      token: clerk,
      body: { value: 'n' },
    });
    expect(pick.data.data.length).toBe(3);
    // The owner (no role) sees everything.
    const all = await call<{ count: number }>(t.app, 'POST', `/api/app/simple/${project}/item/query`, {
      token: owner,
      body: { count: true },
    });
    expect(all.data.count).toBe(6);
    await call(t.app, 'POST', `/api/admin/view/${project}/item/role-filter`, {
      token: owner,
      body: { role: roleId, filter: null },
    });
    expect((await list(clerk)).data.role).toBeNull();
  });
  it('keeps a saved filter whose field changed: the stale condition is listed apart, the rest applies', async () => {
    const P = `/api/admin/project/${project}/item/field`;
    const made = (type: string) =>
      call<{ _id: string }>(t.app, 'POST', `${P}/create`, {
        token: owner,
        body: { name: 'Tag', field: 'tag', type },
      });
    const drop = (id: string) => call(t.app, 'GET', `${P}/${id}/remove?confirm=1`, { token: owner });
    const tag = await made('string');
    expect(tag.error, tag.raw).toBe(0);
    const f = await save(clerk, {
      name: 'Tagged odd',
      type: 'private',
      filter: {
        conditions: [
          { field: 'kind', opt: 'eq', value: 'odd' },
          { field: 'tag', opt: 'eq', value: 'red' },
        ],
        match: 'and',
      },
    });
    expect(f.error, f.raw).toBe(0);
    const mine = async () => (await list(clerk)).data.filters.find((x) => x.id === f.data.id);
    expect((await mine())?.stale).toBeUndefined();
    // Made again as a number: "tag = red" no longer fits its type.
    expect((await drop(tag.data._id)).error).toBe(0);
    const again = await made('number');
    expect(again.error, again.raw).toBe(0);
    let got = await mine();
    expect(got?.filter.conditions).toEqual([{ field: 'kind', opt: 'eq', value: 'odd' }]);
    expect(got?.stale).toEqual([{ field: 'tag', opt: 'eq', value: 'red', reason: 'type' }]);
    // Removed: the table has no such field.
    expect((await drop(again.data._id)).error).toBe(0);
    got = await mine();
    expect(got?.filter.conditions).toEqual([{ field: 'kind', opt: 'eq', value: 'odd' }]);
    expect(got?.stale).toEqual([{ field: 'tag', opt: 'eq', value: 'red', reason: 'field' }]);
  });
});
