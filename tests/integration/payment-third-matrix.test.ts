/**
 * The permission matrix and the bad-input suite for the payment calls and the WeChat / WeCom calls
 * (issue 25), on every database, against local fakes of Alipay, WeChat Pay, WeChat and WeCom.
 *
 * Matrix: every caller kind (the project's owner, one of its admins, a plain member, a signed-in
 * stranger who owns another project, a disabled account, nobody signed in) × every call. Each cell
 * asserts allow or deny; a denial must be coded (never 500) and change nothing (orders, OAuth states,
 * bindings, projects, users, sessions).
 *
 * Bad input: forged, tampered, stale and replayed notifies, wrong amounts, unknown orders; another
 * user's order; OAuth states reused, from another browser or for another provider; sign-in codes
 * reused; bind codes expired, reused, another user's or for another provider; malformed ids, URLs
 * and bodies. Each must answer its coded error with the registry's status and change nothing.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCustom } from '../../src/server/project/service.ts';
import { E, errorByCode } from '../../src/shared/errors.ts';
import { type FakeAlipay, startFakeAlipay } from '../fakes/alipay-gateway.ts';
import { alipayConfigOf, weixinConfigOf, wxpayConfigOf, wxworkConfigOf } from '../fakes/configs.ts';
import { type FakeWeixin, startFakeWeixin } from '../fakes/weixin-server.ts';
import { type FakeWxpay, startFakeWxpay } from '../fakes/wxpay-server.ts';
import { type FakeWxwork, startFakeWxwork } from '../fakes/wxwork-server.ts';
import { seedMember, seedProject, seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import { Browser } from '../helpers/oauth-browser.ts';

const dialects = await testDialects();

/** Every row this area reads or writes, in a stable order: equal before and after = nothing changed. */
async function digest(app: FastifyInstance): Promise<string> {
  const { db } = app.database;
  const rows = await Promise.all([
    db.selectFrom('orders').selectAll().orderBy('id').execute(),
    db.selectFrom('third_states').selectAll().orderBy('hash').execute(),
    db.selectFrom('third_identities').selectAll().orderBy('provider').orderBy('subject').execute(),
    db
      .selectFrom('projects')
      .select(['id', 'tier', 'expired_at', 'limited', 'custom'])
      .orderBy('id')
      .execute(),
    db.selectFrom('users').select(['id', 'status', 'account']).orderBy('id').execute(),
    db.selectFrom('sessions').select(['token_hash']).orderBy('token_hash').execute(),
  ]);
  return JSON.stringify(rows);
}

const ACTORS = ['owner', 'admin', 'member', 'stranger', 'disabled', 'anon'] as const;
type Actor = (typeof ACTORS)[number];
/** Who may: the owner only, anyone signed in (and not disabled), anyone at all. */
type Who = 'owner' | 'signedIn' | 'anyone';

interface World {
  t: TestApp;
  base: string;
  project: string;
  tokens: Record<Actor, string | undefined>;
  ids: Record<Actor, string | undefined>;
  ww: FakeWxwork;
  customAppId: string;
}

interface Req {
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
}

interface Ep {
  name: string;
  who: Who;
  mutating: boolean;
  build(w: World): Promise<Req>;
  /** Callers the call refuses though `who` admits them (e.g. the owner is already bound). */
  deniedFor?: Actor[];
  /** Extra check of an allowed answer. */
  allowed?(data: unknown, w: World, actor: Actor): boolean;
  cleanup?(w: World): Promise<void>;
}

const page = 'https://app.test/home';

/** An unpaid order of the owner's project (the owner's own). */
async function ownerOrder(w: World): Promise<string> {
  const r = await call<{ order: { _id: string } }>(w.t.app, 'POST', '/api/payment/order/package', {
    token: w.tokens.owner,
    body: { type: 'enterprise', project: w.project },
  });
  if (r.error) throw new Error(`order: ${r.raw}`);
  return r.data.order._id;
}

/** Start paying the owner's order; Alipay's cashier page is opened (the gateway then knows the trade). */
async function startPay(w: World, order: string, pt: 'alipay' | 'wxpay'): Promise<void> {
  const r = await call<{ url: string }>(w.t.app, 'POST', `/api/payment/trade/pay/${order}/${pt}`, {
    token: w.tokens.owner,
    body: {},
  });
  if (r.error) throw new Error(`pay: ${r.raw}`);
  if (pt === 'alipay' && (await fetch(r.data.url)).status !== 200) throw new Error('cashier refused');
}

/** A WeChat bind code of the owner's (its token; the owner is bound to WeCom already). */
async function ownerBindCode(w: World): Promise<string> {
  const r = await call<{ token: string }>(w.t.app, 'POST', '/api/third/weixin/main/bind', {
    token: w.tokens.owner,
    body: {},
  });
  if (r.error) throw new Error(`bind: ${r.raw}`);
  return r.data.token;
}

const ENDPOINTS: Ep[] = [
  {
    name: 'order a package',
    who: 'owner',
    mutating: true,
    build: async (w) => ({
      method: 'POST',
      url: '/api/payment/order/package',
      body: { type: 'basics', project: w.project },
    }),
  },
  {
    name: 'order list (own orders only)',
    who: 'signedIn',
    mutating: false,
    build: async () => ({ method: 'GET', url: '/api/payment/order/list' }),
    allowed: (data, w, actor) =>
      Array.isArray(data) && (actor === 'owner' ? data.length > 0 : data.length === 0) && !!w,
  },
  {
    name: 'pay types',
    who: 'signedIn',
    mutating: false,
    build: async () => ({ method: 'GET', url: '/api/payment/config' }),
  },
  ...(['alipay', 'wxpay'] as const).map(
    (pt): Ep => ({
      name: `pay the owner's order (${pt})`,
      who: 'owner',
      mutating: true,
      build: async (w) => ({
        method: 'POST',
        url: `/api/payment/trade/pay/${await ownerOrder(w)}/${pt}`,
        body: {},
      }),
    }),
  ),
  ...(['weixin', 'wxwork'] as const).map(
    (p): Ep => ({
      name: `${p} bind code`,
      who: 'signedIn',
      // The owner is bound to WeCom already: a new WeCom code is refused (2152).
      deniedFor: p === 'wxwork' ? ['owner'] : [],
      mutating: true,
      build: async () => ({ method: 'POST', url: `/api/third/${p}/main/bind`, body: {} }),
    }),
  ),
  {
    name: "the owner's bind code progress",
    who: 'owner',
    mutating: false,
    build: async (w) => ({
      method: 'GET',
      url: `/api/third/weixin/main/bind/token/${await ownerBindCode(w)}`,
    }),
  },
  {
    name: 'unbind WeCom (the owner is bound)',
    who: 'owner',
    mutating: true,
    build: async () => ({ method: 'POST', url: '/api/third/wxwork/main/unbind', body: {} }),
    cleanup: async (w) => {
      await w.t.app.database.db.deleteFrom('third_identities').execute();
      await w.t.app.database.db
        .insertInto('third_identities')
        .values({ provider: 'wxwork', subject: 'corp:matrix_owner', user_id: w.ids.owner!, created_at: 1 })
        .execute();
    },
  },
  {
    name: 'my bindings',
    who: 'signedIn',
    mutating: false,
    build: async () => ({ method: 'GET', url: '/api/third/binds' }),
  },
  {
    name: 'offered sign-ins',
    who: 'anyone',
    mutating: false,
    build: async () => ({ method: 'GET', url: '/api/third/offered' }),
  },
  {
    name: 'wxconfig',
    who: 'anyone',
    mutating: false,
    build: async () => ({
      method: 'GET',
      url: `/api/third/weixin/main/wxconfig?url=${encodeURIComponent(page)}`,
    }),
  },
  {
    name: "a custom build's wxconfig",
    who: 'anyone',
    mutating: false,
    build: async (w) => ({
      method: 'GET',
      url: `/api/third/weixin/third/${w.project}/wxconfig?url=${encodeURIComponent(page)}`,
    }),
    allowed: (data, w) => (data as { appId?: string }).appId === w.customAppId,
  },
  ...(['jsconfig', 'jsagentconfig'] as const).map(
    (k): Ep => ({
      name: `WeCom ${k}`,
      who: 'anyone',
      mutating: false,
      build: async (w) => ({
        method: 'POST',
        url: `/api/third/wxwork/main/${k}/${w.ww.corpId}`,
        body: { url: page },
      }),
    }),
  ),
  {
    name: 'WeCom entry project',
    who: 'anyone',
    mutating: false,
    build: async (w) => ({ method: 'GET', url: `/api/third/wxwork/main/project/${w.ww.corpId}` }),
  },
];

function expectedAllow(who: Who, actor: Actor): boolean {
  if (who === 'anyone') return true;
  if (actor === 'anon' || actor === 'disabled') return false;
  return who === 'signedIn' || actor === 'owner';
}

describe.each(dialects)('payment and WeChat/WeCom on %s', (dialect) => {
  let w: World;
  let ali: FakeAlipay;
  let wxp: FakeWxpay;
  let wx: FakeWeixin;

  beforeAll(async () => {
    ali = await startFakeAlipay();
    wxp = await startFakeWxpay();
    wx = await startFakeWeixin();
    const ww = await startFakeWxwork();
    const customAppId = 'wx0f1e2d3c4b5a6978';
    const customSecret = wx.addApp(customAppId);
    const t = await createTestApp(dialect, {
      publicUrl: 'http://127.0.0.1:0',
      alipay: alipayConfigOf(ali),
      wxpay: wxpayConfigOf(wxp),
      weixin: weixinConfigOf(wx, { [customAppId]: customSecret }),
      wxwork: wxworkConfigOf(ww),
    });
    // The fakes post notifies to this app: it listens on a real port.
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    t.app.config.publicUrl = base;
    const owner = await seedUser(t.app);
    const project = (await seedProject(t.app, owner.id, { tier: 0 })).id;
    await setCustom(t.app.database.db, project, { config: { weixinAppid: customAppId } });
    const admin = await seedUser(t.app);
    await seedMember(t.app, project, admin.id, 'admin', null);
    const member = await seedUser(t.app);
    await seedMember(t.app, project, member.id, 'common', null);
    const stranger = await seedUser(t.app);
    await seedProject(t.app, stranger.id, { tier: 0 });
    const disabled = await seedUser(t.app);
    await t.app.database.db
      .updateTable('users')
      .set({ status: 'disabled' })
      .where('id', '=', disabled.id)
      .execute();
    await t.app.database.db
      .insertInto('third_identities')
      .values({ provider: 'wxwork', subject: 'corp:matrix_owner', user_id: owner.id, created_at: 1 })
      .execute();
    w = {
      t,
      base,
      project,
      ww,
      customAppId,
      tokens: {
        owner: owner.token,
        admin: admin.token,
        member: member.token,
        stranger: stranger.token,
        disabled: disabled.token,
        anon: undefined,
      },
      ids: {
        owner: owner.id,
        admin: admin.id,
        member: member.id,
        stranger: stranger.id,
        disabled: disabled.id,
        anon: undefined,
      },
    };
  });
  afterAll(async () => {
    await w?.t.close();
    await Promise.all([ali?.close(), wxp?.close(), wx?.close(), w?.ww.close()]);
  });

  describe('permission matrix', () => {
    for (const actor of ACTORS) {
      it(actor, async () => {
        const wrong: string[] = [];
        for (const ep of ENDPOINTS) {
          const allow = expectedAllow(ep.who, actor) && !ep.deniedFor?.includes(actor);
          const req = await ep.build(w);
          const before = await digest(w.t.app);
          const token = w.tokens[actor];
          const ans = await call(w.t.app, req.method, req.url, {
            ...(req.body !== undefined ? { body: req.body } : {}),
            ...(token ? { token } : {}),
          });
          const got = ans.error === 0 && (!ep.allowed || ep.allowed(ans.data, w, actor));
          const cell = `${actor} × ${ep.name}`;
          if (ans.status >= 500 || ans.error === 1) wrong.push(`${cell}: server error ${ans.raw}`);
          else if (got !== allow)
            wrong.push(`${cell}: expected ${allow ? 'allow' : 'deny'}, got ${ans.raw.slice(0, 200)}`);
          else if (!allow && !errorByCode(ans.error)) wrong.push(`${cell}: uncoded denial ${ans.raw}`);
          else if (!allow && ep.mutating && (await digest(w.t.app)) !== before)
            wrong.push(`${cell}: denied but data changed`);
          await ep.cleanup?.(w);
        }
        expect(wrong).toEqual([]);
      }, 120_000);
    }
  });

  describe('bad input', () => {
    type Answer = { status: number; body: Record<string, unknown> };
    async function send(r: InjectOptions & { token?: string; cookie?: string }): Promise<Answer> {
      const headers: Record<string, string> = { ...(r.headers as Record<string, string>) };
      if (r.token) headers.token = r.token;
      if (r.cookie) headers.cookie = r.cookie;
      const res = await w.t.app.inject({ ...r, headers });
      return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
    }
    /** The answer is the coded error with its registered status, in the `{error, msg}` shape. */
    function expectCoded(a: Answer, code: number) {
      expect({ error: a.body.error, status: a.status }).toEqual({
        error: code,
        status: errorByCode(code)!.status,
      });
      expect(Object.keys(a.body).sort()).toEqual(['error', 'msg']);
    }
    async function unchanged(work: () => Promise<void>) {
      const before = await digest(w.t.app);
      await work();
      expect(await digest(w.t.app)).toBe(before);
    }
    const json = (url: string, payload: string, token?: string): InjectOptions & { token?: string } => ({
      method: 'POST',
      url,
      payload,
      headers: { 'content-type': 'application/json' },
      ...(token ? { token } : {}),
    });

    it('package orders: junk bodies, unknown packages, foreign or unknown projects, non-owners', async () => {
      const o = w.tokens.owner!;
      const u = '/api/payment/order/package';
      const cases: [string, InjectOptions & { token?: string }, number][] = [
        ['malformed JSON', json(u, '{"type":', o), 1001],
        ['array body', json(u, '[]', o), 1000],
        ['unknown package', json(u, '{"type":"gold"}', o), 1000],
        ['package as a number', json(u, '{"type":5}', o), 1000],
        ['project not an id', json(u, `{"type":"basics","project":"${"' OR 1=1 --"}"}`, o), 1000],
        [
          'project id upper-case',
          json(u, `{"type":"basics","project":"${w.project.toUpperCase()}"}`, o),
          1000,
        ],
        ['huge field', json(u, JSON.stringify({ type: 'basics', project: 'a'.repeat(300_000) }), o), 1000],
        [
          'unknown project',
          json(u, `{"type":"basics","project":"${'e'.repeat(24)}"}`, o),
          E.PROJECT_NOT_FOUND.code,
        ],
        [
          "a member's order",
          json(u, `{"type":"basics","project":"${w.project}"}`, w.tokens.admin),
          E.ONLY_OWNER_PAYS.code,
        ],
        [
          "a stranger's order",
          json(u, `{"type":"basics","project":"${w.project}"}`, w.tokens.stranger),
          E.NOT_MEMBER.code,
        ],
        ['no token', json(u, '{"type":"basics"}'), E.AUTH_REQUIRED.code],
      ];
      for (const [label, req, code] of cases) {
        await unchanged(async () => {
          const a = await send(req);
          expect(a.status, label).not.toBe(500);
          expectCoded(a, code);
        });
      }
    });

    it("paying: another user's order, unknown or malformed ids, unknown pay types, a paid order", async () => {
      const order = await ownerOrder(w);
      const cases: [string, string, string | undefined, number][] = [
        [
          "another user's order",
          `/api/payment/trade/pay/${order}/alipay`,
          w.tokens.stranger,
          E.ORDER_NOT_FOUND.code,
        ],
        [
          "a member's try at the owner's order",
          `/api/payment/trade/pay/${order}/wxpay`,
          w.tokens.admin,
          E.ORDER_NOT_FOUND.code,
        ],
        [
          'unknown order',
          `/api/payment/trade/pay/${'b'.repeat(24)}/alipay`,
          w.tokens.owner,
          E.ORDER_NOT_FOUND.code,
        ],
        ['order id too short', `/api/payment/trade/pay/${'b'.repeat(23)}/alipay`, w.tokens.owner, 1000],
        [
          'order id with SQL',
          `/api/payment/trade/pay/${encodeURIComponent("' OR 1=1 --")}/alipay`,
          w.tokens.owner,
          1000,
        ],
        ['unknown pay type', `/api/payment/trade/pay/${order}/paypal`, w.tokens.owner, 1000],
      ];
      for (const [label, url, token, code] of cases) {
        await unchanged(async () => {
          const a = await send({
            method: 'POST',
            url,
            token,
            payload: '{}',
            headers: { 'content-type': 'application/json' },
          });
          expect(a.status, label).not.toBe(500);
          expectCoded(a, code);
        });
      }
      // Paid (by its notify): paying again is refused, nothing changes.
      await startPay(w, order, 'alipay');
      expect((await ali.notify(order)).text).toBe('success');
      await unchanged(async () => {
        expectCoded(
          await send({
            method: 'POST',
            url: `/api/payment/trade/pay/${order}/wxpay`,
            token: w.tokens.owner,
            payload: '{}',
            headers: { 'content-type': 'application/json' },
          }),
          E.ORDER_PAID.code,
        );
      });
    });

    it('notifies: forged, tampered, stale, wrong amount or merchant, unknown order → refused; replays change nothing', async () => {
      await w.t.app.database.db
        .updateTable('projects')
        .set({ tier: 0 })
        .where('id', '=', w.project)
        .execute();
      const order = await ownerOrder(w);
      await startPay(w, order, 'alipay');
      await startPay(w, order, 'wxpay');
      const forger = crypto
        .generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString();
      const refused: [string, () => Promise<{ status: number; text: string }>][] = [
        ['alipay: signed with another key', () => ali.notify(order, {}, forger)],
        ['alipay: wrong amount', () => ali.notify(order, { total_amount: '0.01', receipt_amount: '0.01' })],
        ['alipay: another app', () => ali.notify(order, { app_id: '2021999999999999' })],
        ['alipay: unknown order', () => ali.notify(order, { out_trade_no: 'c'.repeat(24) })],
        ['alipay: order id that is not an id', () => ali.notify(order, { out_trade_no: "1' OR '1'='1" })],
        ['wxpay: signed with another key', () => wxp.pay(order, {}, { signWith: forger })],
        ['wxpay: unknown platform serial', () => wxp.pay(order, {}, { serial: 'PUB_KEY_ID_other' })],
        [
          'wxpay: encrypted with another key',
          () => wxp.pay(order, {}, { key: crypto.randomBytes(16).toString('hex') }),
        ],
        ['wxpay: an hour old', () => wxp.pay(order, {}, { timestamp: Math.floor(Date.now() / 1000) - 3600 })],
        ['wxpay: tampered body', () => wxp.pay(order, {}, { tamper: true })],
        ['wxpay: wrong amount', () => wxp.pay(order, { amount: { total: 1, currency: 'CNY' } })],
        ['wxpay: another merchant', () => wxp.pay(order, { mchid: '1900000999' })],
        [
          'junk form to the alipay notify',
          async () => {
            const r = await fetch(`${w.base}/api/payment/notify/alipay`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: 'out_trade_no=x&sign=AAAA',
            });
            return { status: r.status, text: await r.text() };
          },
        ],
        [
          'junk JSON to the wxpay notify',
          async () => {
            const r = await fetch(`${w.base}/api/payment/notify/wxpay`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: '{"resource":{"ciphertext":"AAAA"}}',
            });
            return { status: r.status, text: await r.text() };
          },
        ],
      ];
      for (const [label, send] of refused) {
        await unchanged(async () => {
          const r = await send();
          expect([label, r.status]).toEqual([label, 400]);
          expect(JSON.parse(r.text)).toMatchObject({ code: 'FAIL', error: E.NOTIFY_INVALID.code });
        });
      }
      // The genuine one upgrades once; the same notify again (ten times) changes nothing.
      const n = wxp.buildNotify(order);
      const post = () =>
        fetch(`${w.base}/api/payment/notify/wxpay`, { method: 'POST', headers: n.headers, body: n.body });
      expect((await post()).status).toBe(204);
      await unchanged(async () => {
        const replays = await Promise.all(Array.from({ length: 10 }, post));
        expect(replays.map((r) => r.status)).toEqual(Array(10).fill(204));
        expect((await ali.notify(order)).text).toBe('success');
      });
    });

    it('OAuth states: reused, from another browser, for another provider, unknown; declined', async () => {
      const mine = new Browser(() => w.t);
      const start = await mine.get('/api/third/weixin/main/login?redirect=/home');
      const provider = await fetch(String(start.headers.location), { redirect: 'manual' });
      const back = new URL(String(provider.headers.get('location')));
      const state = back.searchParams.get('state')!;
      const thief = new Browser(() => w.t);
      await thief.get('/api/third/weixin/main/login');
      const cases: [string, () => Promise<{ statusCode: number; body: string }>, number][] = [
        [
          'state taken back in another browser',
          () => thief.get(back.pathname + back.search),
          E.THIRD_STATE_FOREIGN.code,
        ],
        [
          'the same state again (single use)',
          () => mine.get(back.pathname + back.search),
          E.THIRD_STATE_INVALID.code,
        ],
        [
          'unknown state',
          () => mine.get(`/api/third/weixin/main/callback?code=x&state=${'A'.repeat(43)}`),
          E.THIRD_STATE_INVALID.code,
        ],
        ['no state', () => mine.get('/api/third/weixin/main/callback?code=x'), E.THIRD_STATE_INVALID.code],
        [
          'state over the limit',
          () => mine.get(`/api/third/weixin/main/callback?code=x&state=${'A'.repeat(200)}`),
          1000,
        ],
      ];
      // A WeChat state brought to WeCom's callback.
      const other = new Browser(() => w.t);
      const s2 = await other.get('/api/third/weixin/main/login?redirect=/home');
      const st2 = new URL(String(s2.headers.location)).searchParams.get('state')!;
      cases.push([
        'a WeChat state at WeCom',
        () => other.get(`/api/third/wxwork/callback?code=x&state=${st2}`),
        E.THIRD_STATE_INVALID.code,
      ]);
      // Declined at the provider: back without a code.
      const declined = new Browser(() => w.t);
      const s3 = await declined.get('/api/third/wxwork/login');
      const st3 = new URL(String(s3.headers.location)).searchParams.get('state')!;
      cases.push([
        'declined (no code)',
        () => declined.get(`/api/third/wxwork/callback?state=${st3}`),
        E.THIRD_PROVIDER.code,
      ]);
      expect(state).toBeTruthy();
      for (const [label, run, code] of cases) {
        const users = await w.t.app.database.db.selectFrom('users').select('id').execute();
        const r = await run();
        expect([label, r.statusCode]).toEqual([label, errorByCode(code)!.status]);
        expect(JSON.parse(r.body).error).toBe(code);
        expect((await w.t.app.database.db.selectFrom('users').select('id').execute()).length).toBe(
          users.length,
        );
      }
    });

    it('sign-in codes: unknown, reused, expired, or a bind code instead', async () => {
      w.ww.member = 'BadInput';
      const b = new Browser(() => w.t);
      const { end } = await b.trip('/api/third/wxwork/login?redirect=/home');
      const code = new URL(String(end.headers.location), w.base).searchParams.get('wx_token')!;
      const ok = await call<{ token: string }>(w.t.app, 'POST', '/api/common/user/oauth/id', {
        body: { token: code },
      });
      expect(ok.error).toBe(0);
      const bindCode = await ownerBindCode(w);
      const u = '/api/common/user/oauth/id';
      const cases: [string, InjectOptions, number][] = [
        ['the same code again', json(u, JSON.stringify({ token: code })), E.THIRD_TOKEN_INVALID.code],
        ['unknown code', json(u, JSON.stringify({ token: 'Q'.repeat(43) })), E.THIRD_TOKEN_INVALID.code],
        ['a bind code', json(u, JSON.stringify({ token: bindCode })), E.THIRD_TOKEN_INVALID.code],
        ['empty code', json(u, '{"token":""}'), 1000],
        ['code as an object', json(u, '{"token":{"$ne":null}}'), 1000],
        ['code over the limit', json(u, JSON.stringify({ token: 'a'.repeat(600) })), 1000],
      ];
      for (const [label, req, code2] of cases) {
        await unchanged(async () => {
          const a = await send(req);
          expect(a.status, label).not.toBe(500);
          expectCoded(a, code2);
        });
      }
      // Expired.
      const b2 = new Browser(() => w.t);
      const again = await b2.trip('/api/third/wxwork/login?redirect=/home');
      const code3 = new URL(String(again.end.headers.location), w.base).searchParams.get('wx_token')!;
      await w.t.app.database.db
        .updateTable('third_states')
        .set({ expires_at: Date.now() - 1 })
        .where('purpose', '=', 'token')
        .execute();
      // Refused, and no session made (the expired code itself is cleared away by the attempt).
      const count = async () =>
        (await w.t.app.database.db.selectFrom('sessions').select('token_hash').execute()).length;
      const sessions = await count();
      expectCoded(await send(json(u, JSON.stringify({ token: code3 }))), E.THIRD_TOKEN_INVALID.code);
      expect(await count()).toBe(sessions);
      w.ww.member = 'ZhangSan';
    });

    it("bind codes: expired, reused, another user's, another provider's, malformed", async () => {
      const mine = await ownerBindCode(w);
      const cases: [string, () => Promise<Answer>, number][] = [
        [
          "another user's progress",
          () =>
            send({
              method: 'GET',
              url: `/api/third/weixin/main/bind/token/${mine}`,
              token: w.tokens.stranger,
            }),
          E.THIRD_BIND_TOKEN_INVALID.code,
        ],
        [
          "WeCom's progress of a WeChat code",
          () =>
            send({ method: 'GET', url: `/api/third/wxwork/main/bind/token/${mine}`, token: w.tokens.owner }),
          E.THIRD_BIND_TOKEN_INVALID.code,
        ],
        [
          'a WeChat code at the WeCom bind',
          () => send({ method: 'GET', url: `/api/third/wxwork/main/bind?token=${mine}` }),
          E.THIRD_BIND_TOKEN_INVALID.code,
        ],
        [
          "a main code at a custom build's bind",
          () => send({ method: 'GET', url: `/api/third/weixin/third/bind?token=${mine}` }),
          E.THIRD_BIND_TOKEN_INVALID.code,
        ],
        [
          'unknown code',
          () => send({ method: 'GET', url: `/api/third/weixin/main/bind?token=${'Z'.repeat(43)}` }),
          E.THIRD_BIND_TOKEN_INVALID.code,
        ],
        ['empty code', () => send({ method: 'GET', url: '/api/third/weixin/main/bind?token=' }), 1000],
        [
          'code over the limit',
          () => send({ method: 'GET', url: `/api/third/weixin/main/bind?token=${'a'.repeat(200)}` }),
          1000,
        ],
        [
          'already bound: a new code',
          () => send(json('/api/third/wxwork/main/bind', '{}', w.tokens.owner)),
          E.THIRD_ALREADY_BOUND.code,
        ],
        [
          'a corp not configured',
          () => send(json('/api/third/wxwork/main/bind', '{"corpid":"wwnope"}', w.tokens.admin)),
          E.WXWORK_CORP_UNKNOWN.code,
        ],
        [
          'redirect as an object',
          () => send(json('/api/third/wxwork/main/bind', '{"redirect":{"a":1}}', w.tokens.admin)),
          1000,
        ],
        [
          'not bound: unbind',
          () => send(json('/api/third/wxwork/main/unbind', '{}', w.tokens.admin)),
          E.THIRD_NOT_BOUND.code,
        ],
      ];
      for (const [label, run, code] of cases) {
        await unchanged(async () => {
          const a = await run();
          expect(a.status, label).not.toBe(500);
          expectCoded(a, code);
        });
      }
      // Used once (the phone opened it): the same code again is refused.
      const first = await new Browser(() => w.t).get(`/api/third/weixin/main/bind?token=${mine}`);
      expect(first.statusCode).toBe(302);
      await unchanged(async () => {
        const again = await new Browser(() => w.t).get(`/api/third/weixin/main/bind?token=${mine}`);
        expect(JSON.parse(again.body).error).toBe(E.THIRD_BIND_TOKEN_INVALID.code);
      });
      // Expired.
      const late = (
        await call<{ token: string }>(w.t.app, 'POST', '/api/third/weixin/main/bind', {
          token: w.tokens.admin,
          body: {},
        })
      ).data.token;
      await w.t.app.database.db
        .updateTable('third_states')
        .set({ expires_at: Date.now() - 1 })
        .where('purpose', '=', 'bind')
        .execute();
      await unchanged(async () => {
        expectCoded(
          await send({ method: 'GET', url: `/api/third/weixin/main/bind?token=${late}` }),
          E.THIRD_BIND_TOKEN_INVALID.code,
        );
        expectCoded(
          await send({
            method: 'GET',
            url: `/api/third/weixin/main/bind/token/${late}`,
            token: w.tokens.admin,
          }),
          E.THIRD_BIND_TOKEN_INVALID.code,
        );
      });
    });

    it('JS-SDK signatures: hostile page URLs, unknown corps and projects, malformed bodies', async () => {
      const wx1 = '/api/third/weixin/main/wxconfig';
      const corp = `/api/third/wxwork/main/jsconfig/${w.ww.corpId}`;
      const cases: [string, InjectOptions, number][] = [
        [
          'javascript: URL',
          { method: 'GET', url: `${wx1}?url=${encodeURIComponent('javascript:alert(1)')}` },
          E.THIRD_URL_INVALID.code,
        ],
        ['not a URL', { method: 'GET', url: `${wx1}?url=nope` }, E.THIRD_URL_INVALID.code],
        ['no URL and no Referer', { method: 'GET', url: wx1 }, E.THIRD_URL_INVALID.code],
        ['URL over the limit', { method: 'GET', url: `${wx1}?url=https://x/${'a'.repeat(1100)}` }, 1000],
        [
          'unknown project',
          { method: 'GET', url: `/api/third/weixin/third/${'e'.repeat(24)}/wxconfig?url=${page}` },
          E.PROJECT_NOT_FOUND.code,
        ],
        [
          'project id malformed',
          { method: 'GET', url: `/api/third/weixin/third/${'e'.repeat(23)}/wxconfig?url=${page}` },
          1000,
        ],
        [
          'unknown corp',
          json('/api/third/wxwork/main/jsagentconfig/wwnope', JSON.stringify({ url: page })),
          E.WXWORK_CORP_UNKNOWN.code,
        ],
        [
          'unknown corp (entry)',
          { method: 'GET', url: '/api/third/wxwork/main/project/wwnope' },
          E.WXWORK_CORP_UNKNOWN.code,
        ],
        ['URL as a number', json(corp, '{"url":5}'), 1000],
        ['malformed JSON', json(corp, '{"url":'), 1001],
        [
          'data: URL',
          json(corp, JSON.stringify({ url: 'data:text/html,<script>1</script>' })),
          E.THIRD_URL_INVALID.code,
        ],
      ];
      for (const [label, req, code] of cases) {
        await unchanged(async () => {
          const a = await send(req);
          expect(a.status, label).not.toBe(500);
          expectCoded(a, code);
        });
      }
      // A project whose custom build has no WeChat app of ours.
      const other = (await seedProject(w.t.app, w.ids.stranger!, { tier: 0 })).id;
      await unchanged(async () => {
        expectCoded(
          await send({ method: 'GET', url: `/api/third/weixin/third/${other}/wxconfig?url=${page}` }),
          E.THIRD_NOT_CONFIGURED.code,
        );
      });
    });
  });
});
