/**
 * WeChat website sign-in against a local fake of WeChat's OAuth endpoints: login → QR connect →
 * callback → `wx_token` → oauth/id → a session; the same person signs in as the same user; states
 * and sign-in codes work once; forged or missing ones are refused with codes and change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E } from '../../src/shared/errors.ts';
import { weixinConfigOf } from '../fakes/configs.ts';
import { type FakeWeixin, startFakeWeixin } from '../fakes/weixin-server.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('weixin sign-in on %s', (dialect) => {
  let t: TestApp;
  let wx: FakeWeixin;
  const base = 'http://app.test';

  beforeAll(async () => {
    wx = await startFakeWeixin();
    t = await createTestApp(dialect, {
      publicUrl: base,
      weixin: weixinConfigOf(wx),
    });
  });
  afterAll(async () => {
    await t?.close();
    await wx?.close();
  });

  /** This browser's OAuth cookie (states are bound to the browser that started them). */
  let jar = '';
  const inject = (url: string) => t.app.inject({ method: 'GET', url, headers: jar ? { cookie: jar } : {} });

  /** Start a sign-in and follow WeChat's redirect back: answers the callback URL (path and query). */
  async function authorise(redirect = '/home'): Promise<string> {
    const start = await inject(`/api/third/weixin/main/login?redirect=${encodeURIComponent(redirect)}`);
    expect(start.statusCode).toBe(302);
    const set = start.headers['set-cookie'];
    if (set) jar = String(set).split(';')[0]!;
    expect(jar).toMatch(/^lc_oauth=/);
    const to = new URL(String(start.headers.location));
    expect(to.origin).toBe(wx.url);
    expect(to.searchParams.get('redirect_uri')).toBe(`${base}/api/third/weixin/main/callback`);
    const back = await fetch(to, { redirect: 'manual' });
    const cb = new URL(String(back.headers.get('location')));
    return cb.pathname + cb.search;
  }

  async function signIn(): Promise<{ token: string; code: string }> {
    const cb = await inject(await authorise());
    expect(cb.statusCode).toBe(302);
    const landing = new URL(String(cb.headers.location), base);
    expect(landing.pathname).toBe('/home');
    const code = landing.searchParams.get('wx_token')!;
    const r = await call<{ token: string }>(t.app, 'POST', '/api/common/user/oauth/id', {
      body: { token: code },
    });
    expect(r.error).toBe(0);
    return { token: r.data.token, code };
  }

  it('signs a new person in as a weixin_ user, and again as the same user', async () => {
    const first = await signIn();
    const me = await call<{ _id: string; account: string; name: string }>(
      t.app,
      'GET',
      '/api/common/user/userInfo',
      { token: first.token },
    );
    expect(me.error).toBe(0);
    expect(me.data.account).toMatch(/^weixin_[0-9a-f]{9}$/);
    const again = await signIn();
    const me2 = await call<{ _id: string }>(t.app, 'GET', '/api/common/user/userInfo', {
      token: again.token,
    });
    expect(me2.data._id).toBe(me.data._id);
    // A sign-in code works once.
    const reuse = await call(t.app, 'POST', '/api/common/user/oauth/id', { body: { token: again.code } });
    expect(reuse.error).toBe(E.THIRD_TOKEN_INVALID.code);
    // Another person is another user.
    wx.person = 'o6_another_person_unionid_001';
    const other = await signIn();
    const me3 = await call<{ _id: string }>(t.app, 'GET', '/api/common/user/userInfo', {
      token: other.token,
    });
    expect(me3.data._id).not.toBe(me.data._id);
  });

  it('refuses a reused, forged or missing state, a bad code and unknown sign-in codes', async () => {
    const users = async () =>
      Number(
        (
          await t.app.database.db
            .selectFrom('users')
            .select((e) => e.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await users();
    const cbUrl = await authorise();
    expect((await inject(cbUrl)).statusCode).toBe(302);
    const replay = await inject(cbUrl);
    expect(JSON.parse(replay.body).error).toBe(E.THIRD_STATE_INVALID.code);
    const forged = await inject('/api/third/weixin/main/callback?code=abc&state=forged');
    expect(JSON.parse(forged.body).error).toBe(E.THIRD_STATE_INVALID.code);
    const none = await inject('/api/third/weixin/main/callback?code=abc');
    expect(JSON.parse(none.body).error).toBe(E.THIRD_STATE_INVALID.code);
    // A real state but a code WeChat never issued.
    const real = new URL(await authorise(), base);
    real.searchParams.set('code', 'not-a-code');
    const bad = await inject(real.pathname + real.search);
    expect([bad.statusCode, JSON.parse(bad.body).error]).toEqual([502, E.THIRD_PROVIDER.code]);
    for (const token of ['wx-abc', 'a'.repeat(43)]) {
      expect((await call(t.app, 'POST', '/api/common/user/oauth/id', { body: { token } })).error).toBe(
        E.THIRD_TOKEN_INVALID.code,
      );
    }
    // Only same-site paths are gone back to.
    const evil = await authorise('//evil.example/x');
    const landed = await inject(evil);
    expect(String(landed.headers.location)).toMatch(/^\/\?wx_token=/);
    // The only user made here is none: every person above already existed.
    expect(await users()).toBe(before);
  });
});
