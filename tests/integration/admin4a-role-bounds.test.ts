/**
 * A role's default filter of a table bounds what its members write, not only what they read:
 * creating or editing a record so that it falls outside the filter is refused (ROLE_RECORD_WOULD_LEAVE)
 * and nothing is written — single calls and lists alike. The view's meta call hands the data view the
 * table's advanced settings (/system/data/{entity}) and the role's filter to show.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E } from '../../src/server/errors.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

async function workbook(header: string[], rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Data');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe.each(dialects)('writes bounded by the role filter on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let clerk: string;
  let project: string;
  let roleId: string;
  let item: string;
  const simple = () => `/api/app/simple/${project}/item`;
  const adminRows = async () =>
    (
      await call<{ data: { _id: string; name: string; kind: string; qty: number }[] }>(
        t.app,
        'POST',
        `/api/admin/data/${project}/item/query`,
        { token: owner, body: { page: { index: 1, size: 100 } } },
      )
    ).data.data;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, {
      user: 'a4aowner1',
      pwd: 'abc12345',
      phone: '13600000481',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'A4A' },
      })
    ).data._id;
    const P = `/api/admin/project/${project}`;
    item = (
      await call<{ _id: string }>(t.app, 'POST', `${P}/entity/create`, {
        token: owner,
        body: { name: 'Item', code: 'item' },
      })
    ).data._id;
    for (const [name, field, type] of [
      ['Name', 'name', 'string'],
      ['Kind', 'kind', 'string'],
      ['Qty', 'qty', 'number'],
      ['Secret', 'secret', 'string'],
    ] as const) {
      const r = await call(t.app, 'POST', `${P}/item/field/create`, {
        token: owner,
        body: { name, type, field },
      });
      expect(r.error, r.raw).toBe(0);
    }
    for (let i = 1; i <= 4; i++)
      await call(t.app, 'POST', `/api/admin/data/${project}/item/save`, {
        token: owner,
        body: { name: `n${i}`, kind: i % 2 ? 'odd' : 'even', qty: i },
      });
    const rolesUrl = `/api/admin/auth/${project}/main/role`;
    roleId = (
      await call<{ _id: string }>(t.app, 'POST', `${rolesUrl}/create`, {
        token: owner,
        body: { name: 'Clerk' },
      })
    ).data._id;
    const bound = await call(t.app, 'POST', `${rolesUrl}/${roleId}/bind`, {
      token: owner,
      body: { entity: [item] },
    });
    expect(bound.error, bound.raw).toBe(0);
    const u = await call(t.app, 'POST', `/api/admin/user/${project}/create`, {
      token: owner,
      body: { role: roleId, account: 'a4aclerk01', pwd: 'abc12345', name: 'Clerk' },
    });
    expect(u.error, u.raw).toBe(0);
    clerk = (
      await call<{ token: string }>(t.app, 'POST', '/api/common/user/login', {
        body: { user: 'a4aclerk01', pwd: 'abc12345' },
      })
    ).data.token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('without a role filter a member creates what they like', async () => {
    const r = await call(t.app, 'POST', `${simple()}/save`, {
      token: clerk,
      body: { name: 'free', kind: 'even' },
    });
    expect(r.error, r.raw).toBe(0);
    const rm = await call(t.app, 'POST', `${simple()}/${(r.data as { _id: string })._id}/remove`, {
      token: clerk,
      body: {},
    });
    expect(rm.error, rm.raw).toBe(0);
  });

  it('gives the data view the role filter with the fields', async () => {
    const f = await call(t.app, 'POST', `/api/admin/view/${project}/item/role-filter`, {
      token: owner,
      body: {
        role: roleId,
        filter: {
          conditions: [
            { field: 'kind', opt: 'eq', value: 'odd' },
            { field: 'qty', opt: 'lt', value: 100 },
          ],
          match: 'and',
        },
      },
    });
    expect(f.error, f.raw).toBe(0);
    const meta = await call<{ role: { conditions: { field: string }[] } | null }>(
      t.app,
      'POST',
      `${simple()}/meta`,
      { token: clerk, body: {} },
    );
    expect(meta.error, meta.raw).toBe(0);
    expect(meta.data.role?.conditions.map((c) => c.field)).toEqual(['kind', 'qty']);
    // The owner (no role filter) gets none.
    const mine = await call<{ role: unknown }>(t.app, 'POST', `${simple()}/meta`, { token: owner, body: {} });
    expect(mine.data.role).toBeNull();
  });

  it('refuses creating a record outside the role filter, nothing written', async () => {
    const before = await adminRows();
    for (const body of [
      { name: 'x1', kind: 'even', qty: 1 },
      { name: 'x2', qty: 1 },
      { name: 'x3', kind: 'odd', qty: 500 },
    ]) {
      const r = await call(t.app, 'POST', `${simple()}/save`, { token: clerk, body });
      expect(r.error, JSON.stringify(body)).toBe(E.ROLE_RECORD_WOULD_LEAVE.code);
    }
    expect(await adminRows()).toEqual(before);
    const ok = await call<{ _id: string; kind: string }>(t.app, 'POST', `${simple()}/save`, {
      token: clerk,
      body: { name: 'inside', kind: 'odd', qty: 7 },
    });
    expect(ok.error, ok.raw).toBe(0);
    expect(ok.data.kind).toBe('odd');
    expect((await adminRows()).length).toBe(before.length + 1);
  });

  it('refuses a list of saves when one row would fall outside, naming that row', async () => {
    const before = await adminRows();
    const r = await call<{ failed: number; errors: { row: number; code: number }[] }>(
      t.app,
      'POST',
      `${simple()}/save`,
      {
        token: clerk,
        body: [
          { name: 'l1', kind: 'odd', qty: 1 },
          { name: 'l2', kind: 'even', qty: 1 },
          { name: 'l3', kind: 'odd', qty: 2 },
        ],
      },
    );
    expect(r.error, r.raw).toBe(E.BULK_ROWS.code);
    expect(r.data.failed).toBe(1);
    expect(r.data.errors).toEqual([
      expect.objectContaining({ row: 2, code: E.ROLE_RECORD_WOULD_LEAVE.code }),
    ]);
    expect(await adminRows()).toEqual(before);
  });

  it('refuses editing a record so that it leaves the role filter, nothing changed', async () => {
    const rows = await adminRows();
    const odd = rows.find((x) => x.kind === 'odd' && x.name === 'n1')!;
    const odd3 = rows.find((x) => x.kind === 'odd' && x.name === 'n3')!;
    const up = await call(t.app, 'POST', `${simple()}/${odd._id}/update`, {
      token: clerk,
      body: { kind: 'even' },
    });
    expect(up.error, up.raw).toBe(E.ROLE_RECORD_WOULD_LEAVE.code);
    const list = await call<{ errors: { row: number; code: number }[] }>(
      t.app,
      'POST',
      `${simple()}/update`,
      {
        token: clerk,
        body: [
          { _id: odd._id, name: 'renamed' },
          { _id: odd3._id, qty: 1000 },
        ],
      },
    );
    expect(list.error, list.raw).toBe(E.BULK_ROWS.code);
    expect(list.data.errors.map((e) => [e.row, e.code])).toEqual([[2, E.ROLE_RECORD_WOULD_LEAVE.code]]);
    expect(await adminRows()).toEqual(rows);
    // An edit that stays inside goes through.
    const fine = await call<{ name: string }>(t.app, 'POST', `${simple()}/${odd._id}/update`, {
      token: clerk,
      body: { name: 'n1b', qty: 99 },
    });
    expect(fine.error, fine.raw).toBe(0);
    expect(fine.data.name).toBe('n1b');
  });

  it('refuses imported rows outside the role filter as row errors; with keepGood keeps the others', async () => {
    const before = await adminRows();
    const file = await workbook(
      ['Name', 'Kind', 'Qty'],
      [
        ['i1', 'odd', 1],
        ['i2', 'even', 2],
        ['i3', 'odd', 3],
        ['i4', 'odd', 400],
      ],
    );
    const send = (query = '') =>
      t.app.inject({
        method: 'POST',
        url: `/api/app/d/${project}/item/import${query}`,
        headers: { token: clerk, 'content-type': 'application/octet-stream' },
        payload: file,
      });
    const all = JSON.parse((await send()).body) as {
      error: number;
      data: { inserted: number; failed: number; errors: { row: number; reason: string }[] };
    };
    expect(all.error).toBe(E.IMPORT_ROWS.code);
    expect(all.data).toMatchObject({ inserted: 0, failed: 2 });
    expect(all.data.errors.map((e) => e.row)).toEqual([3, 5]);
    expect(all.data.errors[0]!.reason).toBe(E.ROLE_RECORD_WOULD_LEAVE.msg);
    expect(await adminRows()).toEqual(before);
    const some = JSON.parse((await send('?keepGood=1')).body) as {
      error: number;
      data: { inserted: number; failed: number; errors: { row: number }[] };
    };
    expect(some.error, JSON.stringify(some)).toBe(0);
    expect(some.data).toMatchObject({ inserted: 2, failed: 2 });
    const after = await adminRows();
    expect(after.length).toBe(before.length + 2);
    expect(
      after
        .filter((r) => /^i\d$/.test(r.name))
        .map((r) => r.name)
        .sort(),
    ).toEqual(['i1', 'i3']);
  });

  it('leaves builders unbounded (the admin data calls have no role filter)', async () => {
    const r = await call(t.app, 'POST', `/api/admin/data/${project}/item/save`, {
      token: owner,
      body: { name: 'builder', kind: 'even' },
    });
    expect(r.error, r.raw).toBe(0);
  });
});

describe.each(dialects)('the table settings in the data view meta on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let clerk: string;
  let project: string;
  let item: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, {
      user: 'a4aowner2',
      pwd: 'abc12345',
      phone: '13600000482',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'A4B' },
      })
    ).data._id;
    const P = `/api/admin/project/${project}`;
    item = (
      await call<{ _id: string }>(t.app, 'POST', `${P}/entity/create`, {
        token: owner,
        body: { name: 'Item', code: 'item' },
      })
    ).data._id;
    for (const [name, field, hide] of [
      ['Name', 'name', false],
      ['Secret', 'secret', true],
    ] as const) {
      const r = await call(t.app, 'POST', `${P}/item/field/create`, {
        token: owner,
        body: { name, type: 'string', field, hide },
      });
      expect(r.error, r.raw).toBe(0);
    }
    const rolesUrl = `/api/admin/auth/${project}/main/role`;
    const roleId = (
      await call<{ _id: string }>(t.app, 'POST', `${rolesUrl}/create`, { token: owner, body: { name: 'R' } })
    ).data._id;
    await call(t.app, 'POST', `${rolesUrl}/${roleId}/bind`, { token: owner, body: { entity: [item] } });
    await call(t.app, 'POST', `/api/admin/user/${project}/create`, {
      token: owner,
      body: { role: roleId, account: 'a4aclerk02', pwd: 'abc12345', name: 'Clerk' },
    });
    clerk = (
      await call<{ token: string }>(t.app, 'POST', '/api/common/user/login', {
        body: { user: 'a4aclerk02', pwd: 'abc12345' },
      })
    ).data.token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the defaults when the table has no settings', async () => {
    const m = await call<{ config: unknown }>(t.app, 'POST', `/api/app/simple/${project}/item/meta`, {
      token: clerk,
      body: {},
    });
    expect(m.error, m.raw).toBe(0);
    expect(m.data.config).toEqual({ sort: null, rowHeight: 'default', pageSize: 20, off: [], labels: [] });
  });

  it('answers the stored settings, leaving out labels and sorts on fields the caller cannot see', async () => {
    const value = {
      sort: { field: 'name', order: 'desc' },
      rowHeight: 'high',
      pageSize: 50,
      off: ['export', 'print'],
      labels: [
        { field: 'name', opt: 'eq', value: 'x', color: 'red' },
        { field: 'secret', opt: 'notnull', color: 'blue' },
      ],
    };
    const set = await call(t.app, 'POST', `/api/app/share/${project}/config/project/table.${item}`, {
      token: owner,
      body: { value },
    });
    expect(set.error, set.raw).toBe(0);
    const m = await call<{ config: typeof value; field: { _field: string }[] }>(
      t.app,
      'POST',
      `/api/app/simple/${project}/item/meta`,
      { token: clerk, body: {} },
    );
    expect(m.data.field.map((f) => f._field)).not.toContain('secret');
    expect(m.data.config).toEqual({ ...value, labels: [value.labels[0]] });
    // The owner sees every field, so every label.
    const o = await call<{ config: typeof value }>(t.app, 'POST', `/api/app/simple/${project}/item/meta`, {
      token: owner,
      body: {},
    });
    expect(o.data.config.labels).toHaveLength(2);
    // A member may not change the table's settings.
    const bad = await call(t.app, 'POST', `/api/app/share/${project}/config/project/table.${item}`, {
      token: clerk,
      body: { value: { rowHeight: 'default' } },
    });
    expect(bad.error).not.toBe(0);
  });
});
