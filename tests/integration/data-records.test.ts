import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('records on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let granted: string;
  let ungranted: string;
  let stranger: string;
  let project: string;
  let customerId: string;
  let orderEntity: string;
  const admin = (path: string) => `/api/admin/data/${project}/${path}`;
  const simple = (path: string) => `/api/app/simple/${project}/${path}`;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, {
      user: 'recowner1',
      pwd: 'abc12345',
      phone: '13600000001',
    }));
    ({ token: stranger } = await registerUser(t.app, {
      user: 'recstranger',
      pwd: 'abc12345',
      phone: '13600000002',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'R' },
      })
    ).data._id;
    const P = `/api/admin/project/${project}`;
    await call<{ _id: string }>(t.app, 'POST', `${P}/entity/create`, {
      token: owner,
      body: { name: 'Customer', code: 'customer' },
    });
    await call(t.app, 'POST', `${P}/customer/field/create`, {
      token: owner,
      body: { name: 'Name', type: 'string', field: 'name' },
    });
    const ord = await call<{ _id: string }>(t.app, 'POST', `${P}/entity/create`, {
      token: owner,
      body: { name: 'Order', code: 'order' },
    });
    orderEntity = ord.data._id;
    for (const [name, type, field, extra] of [
      ['Title', 'string', 'title', {}],
      ['Amount', 'number', 'amount', { option: { decimals: 2 } }],
      ['Day', 'date', 'day', {}],
      ['At', 'time', 'at', {}],
      ['Photo', 'image', 'photo', {}],
      ['Customer', 'relate', 'customer', { relate: 'customer' }],
      ['Also', 'collection', 'also', { relate: 'customer' }],
      ['Secret', 'string', 'secret', { hide: true }],
    ] as const) {
      const r = await call(t.app, 'POST', `${P}/order/field/create`, {
        token: owner,
        body: { name, type, field, ...extra },
      });
      expect(r.error, r.raw).toBe(0);
    }
    const c = await call<{ _id: string }>(t.app, 'POST', admin('customer/save'), {
      token: owner,
      body: { name: 'ACME' },
    });
    customerId = c.data._id;
    // Roles: one granted the order table, one not.
    const A = `/api/admin/auth/${project}/main/role`;
    const yes = await call<{ _id: string }>(t.app, 'POST', `${A}/create`, {
      token: owner,
      body: { name: 'Clerk' },
    });
    const no = await call<{ _id: string }>(t.app, 'POST', `${A}/create`, {
      token: owner,
      body: { name: 'Guest' },
    });
    expect(
      (
        await call(t.app, 'POST', `${A}/${yes.data._id}/bind`, {
          token: owner,
          body: { entity: [orderEntity] },
        })
      ).error,
    ).toBe(0);
    const U = `/api/admin/user/${project}`;
    for (const [account, role] of [
      ['clerk0001', yes.data._id],
      ['guest0001', no.data._id],
    ] as const) {
      const r = await call(t.app, 'POST', `${U}/create`, {
        token: owner,
        body: { role, account, pwd: 'abc12345', name: account },
      });
      expect(r.error, r.raw).toBe(0);
    }
    granted = (
      await call<{ token: string }>(t.app, 'POST', '/api/common/user/login', {
        body: { user: 'clerk0001', pwd: 'abc12345' },
      })
    ).data.token;
    ungranted = (
      await call<{ token: string }>(t.app, 'POST', '/api/common/user/login', {
        body: { user: 'guest0001', pwd: 'abc12345' },
      })
    ).data.token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('saves, reads with relations resolved, updates and removes', async () => {
    const saved = await call<Record<string, unknown>>(t.app, 'POST', admin('order/save'), {
      token: owner,
      body: {
        title: 'First',
        amount: '12.345',
        day: '2024-03-15',
        at: '08:30',
        photo: '/a.png',
        customer: customerId,
        also: [customerId],
        secret: 's',
      },
    });
    expect(saved.error, saved.raw).toBe(0);
    const rec = saved.data;
    expect(rec).toMatchObject({
      title: 'First',
      amount: 12.35,
      at: '08:30:00',
      customer: customerId,
      _customer: 'ACME',
      __name: 'First',
    });
    expect(rec.day).toBe(Date.UTC(2024, 2, 14, 16));
    expect((rec.___customer as { name: string }).name).toBe('ACME');
    expect((rec.___also as { _id: string }[]).map((x) => x._id)).toEqual([customerId]);
    const q = await call<{ data: Record<string, unknown>[]; count: number }>(
      t.app,
      'POST',
      admin('order/query'),
      {
        token: owner,
        body: {
          query: [{ field: 'customer', type: 'relate', opt: 'set', value: [customerId] }],
          count: true,
        },
      },
    );
    expect(q.data.count).toBe(1);
    // An image field is queried as text (src/shared/api/fields.ts), as the workbench filter sends it.
    for (const [opt, n] of [
      ['notnull', 1],
      ['isnull', 0],
    ] as const) {
      const pq = await call<{ count: number }>(t.app, 'POST', admin('order/query'), {
        token: owner,
        body: { query: [{ field: 'photo', type: 'text', opt }], count: true },
      });
      expect(pq.data.count, `${opt} ${pq.raw}`).toBe(n);
    }
    const upd = await call<Record<string, unknown>>(t.app, 'POST', admin(`order/${rec._id}/update`), {
      token: owner,
      body: { amount: 3 },
    });
    expect(upd.data.amount).toBe(3);
    expect(upd.data.title).toBe('First');
    const sum = await call<{ total: Record<string, number> }>(t.app, 'POST', admin('order/summary'), {
      token: owner,
      body: { summary: { metrics: [{ fn: 'sum', field: 'amount' }, { fn: 'count' }] } },
    });
    expect(sum.data.total).toEqual({ sum_amount: 3, count: 1 });
    // Removing the customer clears the relation and the collection link.
    expect((await call(t.app, 'POST', admin(`customer/${customerId}/remove`), { token: owner })).error).toBe(
      0,
    );
    const after = await call<Record<string, unknown>>(t.app, 'GET', admin(`order/${rec._id}`), {
      token: owner,
    });
    expect(after.data.customer).toBeNull();
    expect(after.data.also).toEqual([]);
    expect((await call(t.app, 'POST', admin(`order/${rec._id}/remove`), { token: owner })).error).toBe(0);
    expect((await call(t.app, 'GET', admin(`order/${rec._id}`), { token: owner })).error).toBe(1406);
  });

  it('refuses bad values with a message naming the field, and changes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: 'abc' }, 'amount'],
      [{ amount: { $gt: 1 } }, 'amount'],
      [{ day: '2024-13-45' }, 'day'],
      [{ at: '25:00' }, 'at'],
      [{ customer: 'nope' }, 'customer'],
      [{ customer: 'aaaaaaaaaaaaaaaaaaaaaaaa' }, 'customer'],
      [{ also: 'x' }, 'also'],
      [{ photo: 'javascript:alert(1)' }, 'photo'],
      [{ title: { a: 1 } }, 'title'],
      [{ unknown: 1 }, 'unknown'],
      [{ title: 'x'.repeat(20_001) }, 'title'],
    ];
    for (const [body, field] of cases) {
      const r = await call(t.app, 'POST', admin('order/save'), { token: owner, body });
      expect(r.error, JSON.stringify(body)).toBe(1112);
      expect(r.msg).toContain(field);
    }
    const q = await call<{ count: number }>(t.app, 'POST', admin('order/query'), {
      token: owner,
      body: { count: true },
    });
    expect(q.data.count).toBe(0);
  });

  it('end users: granted roles only, hidden fields neither shown nor filterable, no other project', async () => {
    const saved = await call<{ _id: string }>(t.app, 'POST', simple('order/save'), {
      token: granted,
      body: { title: 'By clerk', secret: 'x' },
    });
    expect(saved.error, saved.raw).toBe(1112); // the hidden field is not theirs to write
    const ok = await call<{ _id: string; secret?: unknown }>(t.app, 'POST', simple('order/save'), {
      token: granted,
      body: { title: 'By clerk' },
    });
    expect(ok.error, ok.raw).toBe(0);
    expect(ok.data.secret).toBeUndefined();
    const list = await call<{ data: Record<string, unknown>[] }>(t.app, 'POST', simple('order/query'), {
      token: granted,
      body: {},
    });
    expect(list.data.data.map((r) => r.title)).toEqual(['By clerk']);
    expect(list.data.data[0]).not.toHaveProperty('secret');
    const filterHidden = await call(t.app, 'POST', simple('order/query'), {
      token: granted,
      body: { query: [{ field: 'secret', type: 'text', opt: 'eq', value: 'x' }] },
    });
    expect(filterHidden.error).toBe(1450);
    expect((await call(t.app, 'POST', simple('order/query'), { token: ungranted, body: {} })).error).toBe(
      1102,
    );
    expect((await call(t.app, 'POST', simple('customer/query'), { token: granted, body: {} })).error).toBe(
      1102,
    );
    expect((await call(t.app, 'POST', simple('order/query'), { token: stranger, body: {} })).error).toBe(
      1201,
    );
    expect((await call(t.app, 'POST', simple('order/query'), { body: {} })).error).toBe(1100);
    expect((await call(t.app, 'POST', admin('order/query'), { token: granted, body: {} })).error).toBe(1102);
    const f = await call<{ data: Record<string, unknown>[] }>(
      t.app,
      'POST',
      `/api/d/${project}/order/filter`,
      {
        token: granted,
        body: { key: 'title', value: 'clerk' },
      },
    );
    expect(f.data.data).toHaveLength(1);
    const rm = await call(t.app, 'POST', simple(`order/${ok.data._id}/remove`), { token: ungranted });
    expect(rm.error).toBe(1102);
  });
});
