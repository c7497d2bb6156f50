/**
 * Payment against local fakes of Alipay and WeChat Pay v3 (tests/fakes): package orders and their
 * reuse, starting payments (signed requests the fakes check), signed notifies that upgrade the
 * project once, and everything refused: forged or replayed notifies, wrong amounts, foreign orders.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_REUSE_MS, type OrderView, type PayAnswer } from '../../src/shared/api/payment.ts';
import { E } from '../../src/shared/errors.ts';
import { type FakeAlipay, startFakeAlipay } from '../fakes/alipay-gateway.ts';
import { alipayConfigOf, wxpayConfigOf } from '../fakes/configs.ts';
import { type FakeWxpay, startFakeWxpay } from '../fakes/wxpay-server.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('payment on %s', (dialect) => {
  let t: TestApp;
  let ali: FakeAlipay;
  let wx: FakeWxpay;
  let owner: { token: string; userId: string };
  let other: { token: string; userId: string };
  let projectId: string;
  let otherProject: string;
  let base: string;

  beforeAll(async () => {
    ali = await startFakeAlipay();
    wx = await startFakeWxpay();
    // The fakes post notifies to this app: it must listen on a real port.
    t = await createTestApp(dialect, {
      publicUrl: 'http://127.0.0.1:0',
      alipay: alipayConfigOf(ali),
      wxpay: wxpayConfigOf(wx),
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.app.config.publicUrl = base;
    owner = await registerUser(t.app, { user: 'payowner1', pwd: 'secret123', phone: '13800000101' });
    other = await registerUser(t.app, { user: 'payother1', pwd: 'secret123', phone: '13800000102' });
    const p = await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
      token: owner.token,
      body: { name: 'Shop' },
    });
    projectId = p.data._id;
    const q = await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
      token: other.token,
      body: { name: 'Theirs' },
    });
    otherProject = q.data._id;
  });
  afterAll(async () => {
    await t?.close();
    await ali?.close();
    await wx?.close();
  });

  const order = (token: string, body: unknown) =>
    call<{ order: OrderView; reused: boolean }>(t.app, 'POST', '/api/payment/order/package', { token, body });
  const projectTier = async (token = owner.token, pid = projectId) => {
    const list = await call<{ _id: string; _status: number; _expired: number | null }[]>(
      t.app,
      'GET',
      '/api/common/project/list',
      { token },
    );
    return list.data.find((p) => p._id === pid)!;
  };

  it('reuses an unpaid order of the same package within a day, else makes a new one', async () => {
    const a = await order(owner.token, { type: 'basics', project: projectId });
    expect(a.error).toBe(0);
    expect(a.data.reused).toBe(false);
    expect(a.data.order).toMatchObject({
      status: 0,
      amount: 899,
      detail: { package: 'basics' },
      project: projectId,
    });
    const b = await order(owner.token, { type: 'basics', project: projectId });
    expect([b.data.order._id, b.data.reused]).toEqual([a.data.order._id, true]);
    const c = await order(owner.token, { type: 'enterprise', project: projectId });
    expect(c.data.order._id).not.toBe(a.data.order._id);
    expect(c.data.order.amount).toBe(9800);
    // Without `project`: the caller's own project.
    const d = await order(owner.token, { type: 'basics' });
    expect(d.data.order._id).toBe(a.data.order._id);
    // A day old: no longer reused.
    await t.app.database.db
      .updateTable('orders')
      .set({ created_at: Date.now() - ORDER_REUSE_MS - 1000 })
      .where('id', '=', a.data.order._id)
      .execute();
    const e = await order(owner.token, { type: 'basics', project: projectId });
    expect(e.data.reused).toBe(false);
    expect(e.data.order._id).not.toBe(a.data.order._id);
    const list = await call<OrderView[]>(t.app, 'GET', '/api/payment/order/list', { token: owner.token });
    expect(list.data.map((o) => o._id)).toEqual([e.data.order._id, c.data.order._id, a.data.order._id]);
    const theirs = await call<OrderView[]>(t.app, 'GET', '/api/payment/order/list', { token: other.token });
    expect(theirs.data).toEqual([]);
  });

  it('refuses bad input, strangers and non-owners with coded errors', async () => {
    for (const body of [{}, { type: 'gold' }, { type: 'basics', project: 'nope' }, { type: 5 }]) {
      const r = await order(owner.token, body);
      expect([r.status, r.error]).toEqual([400, E.BAD_REQUEST.code]);
    }
    expect(
      (await call(t.app, 'POST', '/api/payment/order/package', { body: { type: 'basics' } })).error,
    ).toBe(E.AUTH_REQUIRED.code);
    expect((await call(t.app, 'GET', '/api/payment/order/list')).error).toBe(E.AUTH_REQUIRED.code);
    expect((await order(other.token, { type: 'basics', project: projectId })).error).toBe(E.NOT_MEMBER.code);
    expect((await order(owner.token, { type: 'basics', project: otherProject })).error).toBe(
      E.NOT_MEMBER.code,
    );
    expect((await order(owner.token, { type: 'basics', project: 'a'.repeat(24) })).error).toBe(
      E.PROJECT_NOT_FOUND.code,
    );
    // A member who is not the owner may not pay for the project.
    const member = await registerUser(t.app, { user: 'paymember1', pwd: 'secret123', phone: '13800000103' });
    await t.app.database.db
      .insertInto('project_members')
      .values({
        project_id: projectId,
        user_id: member.userId,
        role_type: 'admin',
        role_id: null,
        status: 'active',
        created_at: Date.now(),
      })
      .execute();
    expect((await order(member.token, { type: 'basics', project: projectId })).error).toBe(
      E.ONLY_OWNER_PAYS.code,
    );
    const mine = await order(owner.token, { type: 'custom', project: projectId });
    for (const pt of ['alipay', 'wxpay']) {
      const r = await call(t.app, 'POST', `/api/payment/trade/pay/${mine.data.order._id}/${pt}`, {
        token: other.token,
      });
      expect([r.status, r.error]).toEqual([404, E.ORDER_NOT_FOUND.code]);
    }
    const bad = await call(t.app, 'POST', `/api/payment/trade/pay/${mine.data.order._id}/paypal`, {
      token: owner.token,
    });
    expect(bad.error).toBe(E.BAD_REQUEST.code);
    const none = await call(t.app, 'POST', `/api/payment/trade/pay/${'b'.repeat(24)}/alipay`, {
      token: owner.token,
    });
    expect(none.error).toBe(E.ORDER_NOT_FOUND.code);
    const list = await call<OrderView[]>(t.app, 'GET', '/api/payment/order/list', { token: member.token });
    expect(list.data).toEqual([]);
  });

  it('alipay: a signed cashier URL; the gateway notify upgrades once, replays change nothing', async () => {
    await t.app.database.db.deleteFrom('orders').execute();
    const o = (await order(owner.token, { type: 'basics', project: projectId })).data.order;
    const pay = await call<PayAnswer>(t.app, 'GET', `/api/payment/trade/pay/${o._id}/alipay`, {
      token: owner.token,
    });
    expect(pay.error).toBe(0);
    expect(pay.data.url.startsWith(ali.gateway)).toBe(true);
    // The payer's browser opens the cashier: the gateway checks our signature.
    const cashier = await fetch(pay.data.url);
    expect(cashier.status).toBe(200);
    expect(ali.trades.get(o._id)).toMatchObject({
      totalAmount: '899.00',
      notifyUrl: `${base}/api/payment/notify/alipay`,
    });
    // A tampered URL (amount changed after signing) is refused by the gateway.
    const tampered = await fetch(pay.data.url.replace('899.00', '1.00'));
    expect(tampered.status).toBe(400);

    const before = await projectTier();
    expect(before._status).toBe(0);
    // Forged: signed with another key; wrong amount; another app id; unknown order.
    const forger = crypto
      .generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    expect((await ali.notify(o._id, {}, forger)).status).toBe(400);
    expect((await ali.notify(o._id, { total_amount: '0.01', receipt_amount: '0.01' })).status).toBe(400);
    expect((await ali.notify(o._id, { app_id: '2021999999999999' })).status).toBe(400);
    expect((await ali.notify(o._id, { out_trade_no: 'c'.repeat(24) })).status).toBe(400);
    // Signed, but not paid yet: taken, nothing changes.
    expect((await ali.notify(o._id, { trade_status: 'WAIT_BUYER_PAY' })).text).toBe('success');
    expect((await projectTier())._status).toBe(0);
    expect(
      (await call<OrderView[]>(t.app, 'GET', '/api/payment/order/list', { token: owner.token })).data[0]!
        .status,
    ).toBe(0);

    const first = await ali.notify(o._id);
    expect(first).toEqual({ status: 200, text: 'success' });
    const after = await projectTier();
    expect(after._status).toBe(1);
    expect(after._expired).toBeGreaterThan(Date.now() + 300 * 24 * 3600 * 1000);
    const paid = (await call<OrderView[]>(t.app, 'GET', '/api/payment/order/list', { token: owner.token }))
      .data[0]!;
    expect(paid).toMatchObject({ _id: o._id, status: 1, payType: 'alipay' });
    // The same notify ten times, concurrently: acknowledged, no second upgrade.
    const replays = await Promise.all(Array.from({ length: 10 }, () => ali.notify(o._id)));
    expect(replays.every((r) => r.text === 'success')).toBe(true);
    expect(await projectTier()).toEqual(after);
    const again = (await call<OrderView[]>(t.app, 'GET', '/api/payment/order/list', { token: owner.token }))
      .data[0]!;
    expect(again.paidAt).toBe(paid.paidAt);
    // A paid order cannot be paid again, and a new package order is a new one.
    expect(
      (await call(t.app, 'POST', `/api/payment/trade/pay/${o._id}/alipay`, { token: owner.token })).error,
    ).toBe(E.ORDER_PAID.code);
    expect((await order(owner.token, { type: 'basics', project: projectId })).data.reused).toBe(false);
  });

  it('wxpay: signed native order gives a code_url; encrypted signed notify upgrades once', async () => {
    const o = (await order(owner.token, { type: 'enterprise', project: projectId })).data.order;
    const pay = await call<PayAnswer>(t.app, 'POST', `/api/payment/trade/pay/${o._id}/wxpay`, {
      token: owner.token,
    });
    expect(pay.error).toBe(0);
    expect(pay.data.url).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(wx.trades.get(o._id)).toMatchObject({
      total: 980000,
      notifyUrl: `${base}/api/payment/notify/wxpay`,
    });
    const forger = crypto
      .generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const refused = [
      await wx.pay(o._id, {}, { signWith: forger }),
      await wx.pay(o._id, {}, { serial: 'PUB_KEY_ID_other' }),
      await wx.pay(o._id, {}, { key: crypto.randomBytes(16).toString('hex') }),
      await wx.pay(o._id, {}, { timestamp: Math.floor(Date.now() / 1000) - 3600 }),
      await wx.pay(o._id, {}, { tamper: true }),
      await wx.pay(o._id, { amount: { total: 1, currency: 'CNY' } }),
      await wx.pay(o._id, { mchid: '1900000999' }),
    ];
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 400, 400]);
    expect((await projectTier())._status).toBe(1);
    const n = wx.buildNotify(o._id);
    const send = () =>
      fetch(`${base}/api/payment/notify/wxpay`, { method: 'POST', headers: n.headers, body: n.body });
    expect((await send()).status).toBe(204);
    expect((await projectTier())._status).toBe(2);
    const expiry = (await projectTier())._expired;
    // The very same notify replayed ten times: acknowledged, nothing changes.
    const replays = await Promise.all(Array.from({ length: 10 }, send));
    expect(replays.map((r) => r.status)).toEqual(Array(10).fill(204));
    expect((await projectTier())._expired).toBe(expiry);
  });

  it('wxpay: a gateway answer not signed by the trusted platform key is a bridge failure', async () => {
    // Another app trusting another platform key: the fake's genuine answer no longer verifies.
    const stranger = crypto
      .generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    const t2 = await createTestApp(dialect, {
      publicUrl: base,
      wxpay: { ...t.app.config.wxpay!, platformPublicKey: stranger },
    });
    try {
      const u = await registerUser(t2.app, { user: 'payowner2', pwd: 'secret123', phone: '13800000104' });
      await call(t2.app, 'POST', '/api/common/project/create', { token: u.token, body: { name: 'P2' } });
      const o2 = (
        await call<{ order: OrderView }>(t2.app, 'POST', '/api/payment/order/package', {
          token: u.token,
          body: { type: 'basics' },
        })
      ).data.order;
      const r = await call(t2.app, 'POST', `/api/payment/trade/pay/${o2._id}/wxpay`, { token: u.token });
      expect([r.status, r.error]).toEqual([502, E.PAYMENT_GATEWAY.code]);
      expect(r.msg).toContain('signature invalid');
      expect(
        (await call<OrderView[]>(t2.app, 'GET', '/api/payment/order/list', { token: u.token })).data[0]!
          .payType,
      ).toBeNull();
      // Alipay is not configured on that app.
      const a = await call(t2.app, 'POST', `/api/payment/trade/pay/${o2._id}/alipay`, { token: u.token });
      expect([a.status, a.error]).toEqual([501, E.PAYMENT_NOT_CONFIGURED.code]);
      const cfg = await call(t2.app, 'GET', '/api/payment/config', { token: u.token });
      expect(cfg.data).toEqual({ alipay: false, wxpay: true });
      expect((await call(t2.app, 'GET', '/api/payment/config')).error).toBe(E.AUTH_REQUIRED.code);
      const n = await fetch(`${base}/api/payment/notify/alipay`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'a=b',
      });
      expect(n.status).toBe(400);
    } finally {
      await t2.close();
    }
  });
});
