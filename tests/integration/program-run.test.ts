/**
 * Running programs as end users (issue #20 item 5) on the CRM demo's programs (item 7): only granted
 * programs are listed, prepared (batched `__`) and run; a bulk run over selected records runs once per
 * record, each in its own transaction; the order-total trigger keeps customers' totals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRun } from '../../src/server/bootstrap.ts';
import { seedMember, seedRole, seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

interface Row {
  _id: string;
  [k: string]: unknown;
}

describe.each(dialects)('running programs on %s', (dialect) => {
  let t: TestApp;
  let p: string;
  let demo: NonNullable<Awaited<ReturnType<typeof firstRun>>>['demo'];
  let owner: string;
  let clerk: string;
  let stranger: string;

  const login = async (user: string, pwd: string) =>
    (await call<{ token: string }>(t.app, 'POST', '/api/common/user/login', { body: { user, pwd } })).data
      .token;
  const prog = <T = unknown>(path: string, token: string, body?: unknown) =>
    call<T>(t.app, body === undefined ? 'GET' : 'POST', `/api/common/program/${p}${path}`, {
      token,
      ...(body === undefined ? {} : { body }),
    });
  const rows = async (entity: string) =>
    (
      await call<{ data: Row[] }>(t.app, 'POST', `/api/admin/data/${p}/${entity}/query`, {
        token: owner,
        body: { page: { index: 1, size: 100 } },
      })
    ).data.data;
  const totals = async () => {
    const orders = await rows('order');
    const want = new Map<string, number>();
    for (const o of orders)
      want.set(String(o.customer), (want.get(String(o.customer)) ?? 0) + Number(o.amount ?? 0));
    const have = new Map((await rows('customer')).map((c) => [c._id, c.order_total]));
    return { want, have };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, { adminAccount: 'builder', adminPassword: 'builder123' });
    const first = await firstRun(t.app);
    p = first!.projectId;
    demo = first!.demo;
    owner = await login('builder', 'builder123');
    const granted = await seedRole(t.app, p, 'common', {
      route: [demo.ordersRoute],
      entity: [demo.orders],
      program: [demo.markPaid],
    });
    const plain = await seedRole(t.app, p, 'common', { route: [demo.ordersRoute], entity: [demo.orders] });
    const a = await seedUser(t.app);
    await seedMember(t.app, p, a.id, 'common', granted);
    clerk = a.token;
    const b = await seedUser(t.app);
    await seedMember(t.app, p, b.id, 'common', plain);
    stranger = b.token;
  }, 120_000);
  afterAll(() => t?.close());

  it('the demo trigger keeps every customer’s order total', async () => {
    const { want, have } = await totals();
    expect(want.size).toBeGreaterThan(0);
    for (const [customer, sum] of want) expect(have.get(customer)).toBeCloseTo(sum, 2);
    // A new order adds to its customer's total in the same write.
    const orders = await rows('order');
    const c = String(orders[0]!.customer);
    const before = Number(have.get(c));
    const r = await call(t.app, 'POST', `/api/admin/data/${p}/order/save`, {
      token: owner,
      body: { no: 'SO-9999', customer: c, amount: 10, status: 'unpaid' },
    });
    expect(r.error, r.raw).toBe(0);
    expect(Number((await totals()).have.get(c))).toBeCloseTo(before + 10, 2);
  });

  it('an order moved to another customer re-sums both customers; a removed order leaves its customer’s total', async () => {
    const orders = await rows('order');
    const { have: start } = await totals();
    const order = orders.find((o) => Number(o.amount) > 0)!;
    const a = String(order.customer);
    const b = [...start.keys()].find((c) => c !== a)!;
    const amount = Number(order.amount);
    const [beforeA, beforeB] = [Number(start.get(a)), Number(start.get(b))];
    const moved = await call(t.app, 'POST', `/api/admin/data/${p}/order/${order._id}/update`, {
      token: owner,
      body: { customer: b },
    });
    expect(moved.error, moved.raw).toBe(0);
    let { want, have } = await totals();
    expect(Number(have.get(a))).toBeCloseTo(beforeA - amount, 2);
    expect(Number(have.get(b))).toBeCloseTo(beforeB + amount, 2);
    for (const [customer, sum] of want) expect(Number(have.get(customer))).toBeCloseTo(sum, 2);
    // A change that keeps the customer sums it once and leaves the others alone.
    const same = await call(t.app, 'POST', `/api/admin/data/${p}/order/${order._id}/update`, {
      token: owner,
      body: { amount: amount + 5 },
    });
    expect(same.error, same.raw).toBe(0);
    ({ want, have } = await totals());
    expect(Number(have.get(a))).toBeCloseTo(beforeA - amount, 2);
    expect(Number(have.get(b))).toBeCloseTo(beforeB + amount + 5, 2);
    // Removed: its (new) customer's total drops by it.
    const gone = await call(t.app, 'POST', `/api/admin/data/${p}/order/${order._id}/remove`, {
      token: owner,
      body: {},
    });
    expect(gone.error, gone.raw).toBe(0);
    ({ want, have } = await totals());
    expect(Number(have.get(b))).toBeCloseTo(beforeB, 2);
    for (const [customer, sum] of want) expect(Number(have.get(customer))).toBeCloseTo(sum, 2);
  });

  it('lists and prepares only granted programs; others get a coded refusal', async () => {
    const mine = await prog<{ _id: string; _entity: string | null; _input: boolean }[]>('/init', clerk);
    expect(mine.error).toBe(0);
    // The trigger program is not a button.
    expect(mine.data).toEqual([
      expect.objectContaining({ _id: demo.markPaid, _entity: 'order', _input: true, _version: 1 }),
    ]);
    expect((await prog<unknown[]>('/init', stranger)).data).toEqual([]);
    // One batched prepare answers each program on its own.
    const batch = await prog<Record<string, { _id?: string; input?: unknown[]; error?: number }>>(
      '/prepare/__/list',
      clerk,
      { names: [demo.markPaid, demo.orderTotal, 'ffffffffffffffffffffffff'] },
    );
    expect(batch.error, batch.raw).toBe(0);
    expect(batch.data[demo.markPaid]).toMatchObject({ _id: demo.markPaid, _entity: 'order' });
    expect(batch.data[demo.markPaid]!.input).toHaveLength(1);
    expect(batch.data[demo.orderTotal]!.error).toBeGreaterThan(0);
    expect(batch.data.ffffffffffffffffffffffff!.error).toBe(1800);
    const refused = await prog<Record<string, { error?: number }>>('/prepare/__/list', stranger, {
      names: [demo.markPaid],
    });
    expect(refused.data[demo.markPaid]!.error).toBeGreaterThan(0);
    // Calling it anyway: a coded refusal, nothing changed.
    const order = (await rows('order')).find((o) => o.status === 'unpaid')!;
    const exec = await prog(`/exec/${demo.markPaid}/list`, stranger, {
      data: { method: '现金 Cash' },
      record: order._id,
    });
    expect(exec.error).not.toBe(0);
    expect(exec.error).toBe(refused.data[demo.markPaid]!.error);
    expect((await rows('order')).find((o) => o._id === order._id)!.status).toBe('unpaid');
    // Bad batches are refused whole.
    expect((await prog('/prepare/__/list', clerk, { names: [] })).error).not.toBe(0);
  });

  it('a bulk run marks the selected orders paid, one run per record', async () => {
    const all = await rows('order');
    const unpaid = all.filter((o) => o.status === 'unpaid').slice(0, 3);
    const paid = all.find((o) => o.status === 'paid')!;
    const { have: totalsBefore } = await totals();
    const ids = [...unpaid.map((o) => o._id), paid._id, 'ffffffffffffffffffffffff'];
    const r = await prog<{
      runs: { record: string; status: string; error?: { code: number } }[];
      ok: number;
      failed: number;
      display: { message?: string }[];
      entities: string[];
      changed: number;
    }>(`/exec/${demo.markPaid}/list`, clerk, { data: { method: '转账 Transfer' }, records: ids });
    expect(r.error, r.raw).toBe(0);
    expect(r.data.runs.map((x) => x.record)).toEqual(ids);
    expect(r.data.ok).toBe(4);
    expect(r.data.failed).toBe(1);
    // A record that is not there (1406, record not found) fails alone.
    expect(r.data.runs[4]!.error!.code).toBe(1406);
    // Three orders, and each order's customer (the order-total trigger ran in the same runs): the
    // client reloads both tables.
    expect(r.data.changed).toBe(6);
    expect([...r.data.entities].sort()).toEqual([demo.orders, demo.customers].sort());
    expect(r.data.display.filter((d) => d.message?.includes('already paid'))).toHaveLength(1);
    const after = await rows('order');
    for (const o of unpaid) {
      const now = after.find((x) => x._id === o._id)!;
      expect(now).toMatchObject({ status: 'paid', payment: '转账 Transfer' });
    }
    // The already-paid order kept its payment method; totals did not move (amounts unchanged).
    expect(after.find((x) => x._id === paid._id)!.payment).toBe(paid.payment);
    expect((await totals()).have).toEqual(totalsBefore);
    // Each record's run is in the log.
    const runs = await call<{ trigger: string; status: string }[]>(
      t.app,
      'GET',
      `/api/admin/flow/${p}/${demo.markPaid}/runs`,
      { token: owner },
    );
    expect(runs.data.filter((x) => x.trigger === 'exec')).toHaveLength(5);
  });

  it('refuses bad bulk input and changes nothing', async () => {
    const before = await rows('order');
    const unpaid = before.filter((o) => o.status === 'unpaid').map((o) => o._id);
    expect(unpaid.length).toBeGreaterThan(0);
    // A method not in the options: refused once for all, nothing changed.
    const bad = await prog(`/exec/${demo.markPaid}/list`, clerk, {
      data: { method: 'gold' },
      records: unpaid,
    });
    expect(bad.error).toBe(1805);
    const many = Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(24, '0'));
    expect((await prog(`/exec/${demo.markPaid}/list`, clerk, { data: {}, records: many })).error).toBe(2040);
    expect((await prog(`/exec/${demo.markPaid}/list`, clerk, { data: {}, records: [] })).error).toBe(2040);
    expect(await rows('order')).toEqual(before);
  });

  it('a program that runs on no table refuses records (2041)', async () => {
    const F = `/api/admin/flow/${p}`;
    const f = await call<{ _id: string }>(t.app, 'POST', `${F}/create`, {
      token: owner,
      body: { name: 'Hello', _process: [{ _type: 'return', _handle: 'r', _procedure: { value: "'hi'" } }] },
    });
    await call(t.app, 'POST', `${F}/${f.data._id}/release`, { token: owner, body: {} });
    const order = (await rows('order'))[0]!;
    const r = await call(t.app, 'POST', `/api/common/program/${p}/exec/${f.data._id}/k`, {
      token: owner,
      body: { records: [order._id, order._id] },
    });
    expect(r.error).toBe(2041);
    const one = await call<{ output: unknown }>(
      t.app,
      'POST',
      `/api/common/program/${p}/exec/${f.data._id}/k`,
      {
        token: owner,
        body: {},
      },
    );
    expect(one.data.output).toBe('hi');
  });
});
