import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityTable } from '../../src/server/data/ddl.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('data model on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  let other: string;
  let project: string;
  let otherProject: string;
  const base = () => `/api/admin/project/${project}`;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token } = await registerUser(t.app, { user: 'modeller1', pwd: 'abc12345', phone: '13700000001' }));
    ({ token: other } = await registerUser(t.app, {
      user: 'stranger1',
      pwd: 'abc12345',
      phone: '13700000002',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', { token, body: { name: 'P' } })
    ).data._id;
    otherProject = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: other,
        body: { name: 'Q' },
      })
    ).data._id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates a real table with one column per field, of every type', async () => {
    const mod = await call<{ _id: string }>(t.app, 'POST', `${base()}/module/create`, {
      token,
      body: { name: 'Sales' },
    });
    expect(mod.error).toBe(0);
    const customer = await call<{ _id: string; _code: string }>(t.app, 'POST', `${base()}/entity/create`, {
      token,
      body: { name: '客户', code: 'customer', module: mod.data._id },
    });
    expect(customer.error).toBe(0);
    const order = await call<{ _id: string }>(t.app, 'POST', `${base()}/entity/create`, {
      token,
      body: { name: 'Order', code: 'order' },
    });
    const types = ['string', 'number', 'date', 'time', 'image'] as const;
    for (const type of types) {
      const f = await call(t.app, 'POST', `${base()}/order/field/create`, {
        token,
        body: { name: type, type, field: `f_${type}` },
      });
      expect(f.error, f.raw).toBe(0);
    }
    const rel = await call<{ _relate: string[] }>(t.app, 'POST', `${base()}/order/field/create`, {
      token,
      body: { name: 'Customer', type: 'relate', field: 'customer', relate: 'customer' },
    });
    expect(rel.data._relate).toEqual([customer.data._id]);
    const coll = await call(t.app, 'POST', `${base()}/${order.data._id}/field/create`, {
      token,
      body: { name: 'Tags', type: 'collection', field: 'tags', relate: customer.data._id },
    });
    expect(coll.error).toBe(0);
    const fields = await call<{ _field: string }[]>(t.app, 'GET', `${base()}/order/field`, { token });
    expect(fields.data.map((f) => f._field)).toEqual([...types.map((x) => `f_${x}`), 'customer', 'tags']);
    // The table exists and accepts a row with those columns.
    const cols = await t.app.database.db.introspection.getTables();
    const table = cols.find((c) => c.name === entityTable(order.data._id));
    expect(table?.columns.length).toBe(4 + 6);
    const mods = await call<{ _entity: string[] }[]>(t.app, 'GET', `${base()}/module`, { token });
    expect(mods.data[0]?._entity).toEqual([customer.data._id]);
  });

  it('refuses bad codes, taken codes, type changes, and other projects', async () => {
    expect(
      (await call(t.app, 'POST', `${base()}/entity/create`, { token, body: { name: 'x', code: '1bad' } }))
        .error,
    ).toBe(1112);
    expect(
      (await call(t.app, 'POST', `${base()}/entity/create`, { token, body: { name: 'x', code: 'order' } }))
        .error,
    ).toBe(1403);
    expect(
      (
        await call(t.app, 'POST', `${base()}/entity/create`, {
          token,
          body: { name: 'x', code: "a'; drop table users;--" },
        })
      ).error,
    ).toBe(1112);
    expect(
      (
        await call(t.app, 'POST', `${base()}/order/field/create`, {
          token,
          body: { name: 'r', type: 'relate' },
        })
      ).error,
    ).toBe(1112);
    expect(
      (
        await call(t.app, 'POST', `${base()}/order/field/create`, {
          token,
          body: { name: 'x', type: 'blob' },
        })
      ).error,
    ).toBe(1000);
    expect(
      (
        await call(t.app, 'POST', `${base()}/order/field/f_number/update`, {
          token,
          body: { type: 'string' },
        })
      ).error,
    ).toBe(1405);
    expect((await call(t.app, 'GET', `${base()}/entity`, { token: other })).error).toBe(1201);
    // Another project's table is not reachable by code from this one.
    await call(t.app, 'POST', `/api/admin/project/${otherProject}/entity/create`, {
      token: other,
      body: { name: 'Z', code: 'zeta' },
    });
    expect((await call(t.app, 'GET', `${base()}/zeta/field`, { token })).error).toBe(1400);
    expect(
      (
        await call(t.app, 'POST', `${base()}/order/field/create`, {
          token,
          body: { name: 'r', type: 'relate', relate: 'zeta' },
        })
      ).error,
    ).toBe(1400);
  });

  it('asks for confirmation before removing, then removes tables and pointing fields', async () => {
    const first = await call(t.app, 'GET', `${base()}/entity/customer/remove`, { token });
    expect(first.error).toBe(1404);
    expect(first.msg).toContain('Customer');
    const done = await call(t.app, 'GET', `${base()}/entity/customer/remove?confirm=1`, { token });
    expect(done.error).toBe(0);
    const fields = await call<{ _field: string }[]>(t.app, 'GET', `${base()}/order/field`, { token });
    expect(fields.data.map((f) => f._field)).not.toContain('customer');
    expect((await call(t.app, 'GET', `${base()}/order/field/f_time/remove`, { token })).error).toBe(1404);
    expect((await call(t.app, 'GET', `${base()}/order/field/f_time/remove?confirm=1`, { token })).error).toBe(
      0,
    );
  });
});
