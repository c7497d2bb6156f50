/**
 * Datasets over HTTP: builders create, save (checked), preview, release, restore; end users show the
 * released dataset when their role is granted it (batched form included); hidden fields never leave
 * the server; bad input answers coded errors and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMember, seedProject, seedRole, seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

interface Ds {
  _id: string;
  _version: number | null;
  _dataset: { base: string; columns: unknown[] };
}
interface Shown {
  rows: Record<string, unknown>[];
  count?: number;
  columns?: { key: string; title: string }[];
  version: number;
}

const at = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d, 4);

describe.each(dialects)('datasets on %s', (dialect) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let granted: { id: string; token: string };
  let plain: { id: string; token: string };
  let pid: string;
  let otherPid: string;
  let customers: string;
  let orders: string;
  let foreignTable: string;

  const admin = <T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown, token = owner.token) =>
    call<T>(t.app, method, `/api/admin${path}`, { token, ...(body === undefined ? {} : { body }) });
  const ds = <T = Ds>(path: string, body?: unknown, token = owner.token, p = pid) =>
    call<T>(t.app, body === undefined ? 'GET' : 'POST', `/api/admin/dataset/${p}${path}`, {
      token,
      ...(body === undefined ? {} : { body }),
    });
  const show = <T = Shown>(flow: string, body: unknown, token: string | null = owner.token) =>
    call<T>(t.app, 'POST', `/api/app/ds/${pid}/${flow}/show`, { ...(token ? { token } : {}), body });
  const table = async (p: string, name: string, fields: [string, string, string?, boolean?][]) => {
    const e = (await admin<{ _id: string }>('POST', `/project/${p}/entity/create`, { name })).data._id;
    for (const [code, type, relate, hide] of fields) {
      const r = await admin('POST', `/project/${p}/${e}/field/create`, {
        name: code,
        field: code,
        type,
        ...(relate ? { relate: relate === 'self' ? e : relate } : {}),
        ...(hide ? { hide } : {}),
      });
      expect(r.error, r.msg).toBe(0);
    }
    return e;
  };
  const save = async (entity: string, values: Record<string, unknown>) => {
    const r = await admin<{ _id: string }>('POST', `/data/${pid}/${entity}/save`, values);
    expect(r.error, r.msg).toBe(0);
    return r.data._id;
  };
  const sales = (over: Record<string, unknown> = {}) => ({
    base: orders,
    joins: [{ as: 'c', from: 't', field: 'customer' }],
    columns: [
      { key: 'month', expr: { fn: 'month', args: [{ ref: 't.at' }] } },
      { key: 'city', expr: { ref: 'c.city' } },
      { key: 'amount', expr: { ref: 't.amount' } },
      { key: 'secret', expr: { ref: 'c.secret' } },
    ],
    where: [{ field: 'city', type: 'text', opt: 'eq', value: { $param: 'city' } }],
    group: ['month', 'secret'],
    aggregates: [
      { key: 'total', fn: 'sum', of: 'amount' },
      { key: 'n', fn: 'count' },
    ],
    sort: [{ key: 'month', order: 'asc' }],
    params: [{ name: 'city', type: 'text', default: 'north' }],
    ...over,
  });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await seedUser(t.app);
    granted = await seedUser(t.app);
    plain = await seedUser(t.app);
    pid = (await seedProject(t.app, owner.id, { tier: 3 })).id;
    otherPid = (await seedProject(t.app, owner.id, { tier: 3 })).id;
    customers = await table(pid, 'Customers', [
      ['name', 'string'],
      ['city', 'string'],
      ['secret', 'number', undefined, true],
    ]);
    orders = await table(pid, 'Orders', [
      ['amount', 'number'],
      ['at', 'date'],
      ['customer', 'relate', customers],
      ['next', 'relate', 'self'],
    ]);
    foreignTable = await table(otherPid, 'Foreign', [['x', 'string']]);
    const north = await save(customers, { name: 'A', city: 'north', secret: 7 });
    const south = await save(customers, { name: 'B', city: 'south', secret: 9 });
    await save(orders, { amount: 10, at: at(2024, 1, 5), customer: north });
    await save(orders, { amount: 2.5, at: at(2024, 1, 20), customer: north });
    await save(orders, { amount: 4, at: at(2024, 2, 2), customer: north });
    await save(orders, { amount: 100, at: at(2024, 1, 9), customer: south });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('builds, previews, releases, shows (grants, hidden fields, params, paging, batching), restores', async () => {
    const created = await ds('/create', { name: 'Sales by month', _dataset: sales() });
    expect(created.error, created.msg).toBe(0);
    const id = created.data._id;
    expect(created.data._version).toBeNull();
    // Not released yet: end users get the coded error; builders preview the draft.
    expect((await show(id, {})).error).toBe(1925);
    const preview = await ds<Shown>(`/${id}/preview`, {});
    expect(preview.error, preview.msg).toBe(0);
    expect(preview.data.rows).toEqual([
      { month: '2024-01', secret: 7, total: 12.5, n: 2 },
      { month: '2024-02', secret: 7, total: 4, n: 1 },
    ]);
    // The live preview of an unsaved edit.
    const live = await ds<Shown>(`/${id}/preview`, {
      _dataset: sales({ group: ['city'], sort: [] }),
      params: { city: 'south' },
    });
    expect(live.data.rows).toEqual([{ city: 'south', total: 100, n: 1 }]);

    const display = {
      _display: {
        _entity: [{ key: 'month', title: 'Month' }, { key: 'total', title: 'Total' }, { key: 'secret' }],
      },
    };
    expect((await ds(`/${id}/update`, { _release: display })).error).toBe(0);
    const rel = await ds(`/${id}/release`, {});
    expect(rel.data._version).toBe(1);

    // Grants: one role granted the dataset, one not.
    const roleG = await seedRole(t.app, pid, 'common', { dataset: [id] });
    const roleN = await seedRole(t.app, pid, 'common');
    await seedMember(t.app, pid, granted.id, 'common', roleG);
    await seedMember(t.app, pid, plain.id, 'common', roleN);
    const denied = await show(id, {}, plain.token);
    expect(denied.error).toBe(1102);
    expect(denied.data).toBeUndefined();
    expect((await show(id, {}, null)).error).toBe(1100);

    const seen = await show(id, { count: true }, granted.token);
    expect(seen.error, seen.msg).toBe(0);
    // The hidden field's column is left out for end users, the display's order and titles kept.
    expect(seen.data.rows).toEqual([
      { month: '2024-01', total: 12.5 },
      { month: '2024-02', total: 4 },
    ]);
    expect(seen.data.columns).toEqual([
      { key: 'month', title: 'Month', type: 'text' },
      { key: 'total', title: 'Total', type: 'number' },
    ]);
    expect(seen.data.count).toBe(2);
    expect(seen.data.version).toBe(1);
    expect(JSON.stringify(seen.data)).not.toContain('secret');
    // A client holding version 1 gets no columns again.
    expect((await show(id, { version: 1 }, granted.token)).data.columns).toBeUndefined();
    // Params, extra filter, sort, paging.
    expect((await show(id, { params: { city: 'south' } }, granted.token)).data.rows).toEqual([
      { month: '2024-01', total: 100 },
    ]);
    const filtered = await show(
      id,
      {
        query: [{ field: 'total', type: 'number', opt: 'gt', value: 5 }],
        sort: [{ field: 'total', order: 'desc' }],
      },
      granted.token,
    );
    expect(filtered.data.rows).toEqual([{ month: '2024-01', total: 12.5 }]);
    const page2 = await show(id, { page: { index: 2, size: 1 }, count: true }, granted.token);
    expect(page2.data).toMatchObject({ rows: [{ month: '2024-02', total: 4 }], count: 2 });
    // End users cannot filter on the hidden column.
    expect(
      (await show(id, { query: [{ field: 'secret', type: 'number', opt: 'eq', value: 7 }] }, granted.token))
        .error,
    ).toBe(1450);

    // The batched form: one call, answers keyed by key, each its own error.
    const other = (
      await ds('/create', {
        name: 'Cities',
        _dataset: sales({ group: ['city'], where: undefined, sort: [] }),
      })
    ).data._id;
    await ds(`/${other}/release`, {});
    const batch = await call<Record<string, { error: number; data?: Shown }>>(
      t.app,
      'POST',
      `/api/app/ds/${pid}/__/show`,
      {
        token: granted.token,
        body: {
          map: {
            k1: { flow: id, params: { city: 'south' } },
            k2: { flow: other, params: {} },
            k3: { flow: id, dataset: { page: { index: 1, size: 1 } } },
          },
        },
      },
    );
    expect(batch.error, batch.msg).toBe(0);
    expect(batch.data.k1?.data?.rows).toEqual([{ month: '2024-01', total: 100 }]);
    expect(batch.data.k2?.error).toBe(1102);
    expect(batch.data.k3?.data?.rows).toHaveLength(1);

    // Versions and restore.
    expect(
      (
        await ds(`/${id}/update`, {
          _dataset: sales({ group: ['city'], sort: [] }),
          _release: { _display: { _entity: [] } },
        })
      ).error,
    ).toBe(0);
    expect((await ds(`/${id}/release`, {})).data._version).toBe(2);
    expect((await ds<{ version: number }[]>(`/${id}/versions`)).data.map((v) => v.version)).toEqual([2, 1]);
    const restored = await ds(`/${id}/restore`, { version: 1 });
    expect((restored.data._dataset as unknown as { group: string[] }).group).toEqual(['month', 'secret']);
    expect((await ds(`/${id}/restore`, { version: 9 })).error).toBe(1926);
    // A dataset is not a program: the program calls do not touch it.
    expect(
      (
        await call(t.app, 'POST', `/api/admin/flow/${pid}/${id}/update`, {
          token: owner.token,
          body: { _process: [] },
        })
      ).error,
    ).toBe(1800);
  });

  it("grants and a role home name only this project's datasets", async () => {
    const mine = (await ds('/create', { name: 'Home' })).data._id;
    const theirs = (await ds('/create', { name: 'Theirs' }, owner.token, otherPid)).data._id;
    const program = (await admin<{ _id: string }>('POST', `/flow/${pid}/create`, { name: 'P' })).data._id;
    const R = `/auth/${pid}/main/role`;
    const role = (await admin<{ _id: string }>('POST', `${R}/create`, { name: 'Home role' })).data._id;
    const home = async (value: string) =>
      (await admin('POST', `${R}/${role}/update`, { home: { type: 'dataset', value } })).error;
    const bind = async (dataset: string[]) => (await admin('POST', `${R}/${role}/bind`, { dataset })).error;
    expect(await home(theirs)).toBe(1310);
    expect(await home(program)).toBe(1310);
    expect(await home('f'.repeat(24))).toBe(1310);
    expect(await bind([mine, theirs])).toBe(1310);
    expect(await bind([program])).toBe(1310);
    const stored = async () =>
      t.app.database.db
        .selectFrom('roles')
        .select(['home', 'grants'])
        .where('id', '=', role)
        .executeTakeFirstOrThrow();
    const before = await stored();
    expect(before.home).toBeNull();
    expect(await home(mine)).toBe(0);
    expect(await bind([mine])).toBe(0);
    const after = await stored();
    expect(JSON.parse(after.home!)).toEqual({ type: 'dataset', value: mine });
    expect(JSON.parse(after.grants).dataset).toEqual([mine]);
  });

  it('bad input: cycles, unknown fields, foreign tables, hostile params — coded, nothing changed', async () => {
    const made = await ds('/create', { name: 'Guarded', _dataset: sales() });
    const id = made.data._id;
    const before = (await ds(`/${id}`)).data;
    const bad: [string, unknown, number][] = [
      ['unknown field', sales({ columns: [{ key: 'x', expr: { ref: 'c.nope' } }] }), 1922],
      [
        'cycle',
        sales({
          joins: [
            { as: 'a', from: 'b', field: 'next' },
            { as: 'b', from: 'a', field: 'next' },
          ],
        }),
        1923,
      ],
      [
        'foreign table',
        sales({
          base: foreignTable,
          joins: [],
          columns: [{ key: 'x', expr: { ref: 't.x' } }],
          where: [],
          group: [],
          aggregates: [],
          sort: [],
        }),
        1922,
      ],
      ['unknown function', sales({ columns: [{ key: 'x', expr: { fn: 'system', args: [] } }] }), 1921],
      ['sql in a key', sales({ columns: [{ key: 'x; DROP TABLE flows', expr: { ref: 't.amount' } }] }), 1921],
      ['sum of text', sales({ aggregates: [{ key: 's', fn: 'sum', of: 'city' }] }), 1921],
    ];
    for (const [label, dataset, code] of bad) {
      const r = await ds(`/${id}/update`, { _dataset: dataset });
      expect(r.error, label).toBe(code);
      expect(r.status, label).toBe(400);
    }
    expect(
      (
        await ds('/create', {
          name: 'X',
          _dataset: sales({ columns: [{ key: 'x', expr: { ref: 'q.nope' } }] }),
        })
      ).error,
    ).toBe(1922);
    expect((await ds(`/${id}`)).data).toEqual(before);
    await ds(`/${id}/release`, {});
    for (const params of [
      { city: { $gt: '' } },
      { city: ['a'] },
      { city: 'a\u0000' },
      { ghost: 1 },
      { city: 'x'.repeat(2000) },
    ]) {
      const r = await show(id, { params });
      expect(r.error, JSON.stringify(params).slice(0, 40)).toBe(1924);
    }
    // A value that looks like SQL is only a value.
    expect((await show(id, { params: { city: "north' OR '1'='1" } })).data.rows).toEqual([]);
    expect((await show('0123456789abcdef01234567', {})).error).toBe(1920);
    expect((await ds('/0123456789abcdef01234567/preview', {})).error).toBe(1920);
    // Another project's id in the path.
    expect(
      (await call(t.app, 'POST', `/api/app/ds/${otherPid}/${id}/show`, { token: owner.token, body: {} }))
        .error,
    ).toBe(1920);
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, { flow: id }]));
    expect((await show('__', { map: tooMany })).error).not.toBe(0);
    expect((await show('__', { map: { k: 'x' } })).error).toBe(1928);
  });
});
