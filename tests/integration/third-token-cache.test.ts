/**
 * Provider tokens and tickets are shared through Redis: two app processes (two instances here)
 * signing wx.config at the same time fetch one access token and one jsapi_ticket between them, and
 * both signatures verify. When the provider refuses a cached access token (expired early, replaced
 * elsewhere) it is fetched again once — once for all processes sharing Redis — and the call tried
 * again; a token refused again is a coded provider error, not a loop. The Redis parts run when
 * TEST_REDIS_URL is set (as in CI); the single-process refusal runs on every database.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E } from '../../src/shared/errors.ts';
import { wxworkConfigOf } from '../fakes/configs.ts';
import { type FakeWeixin, startFakeWeixin } from '../fakes/weixin-server.ts';
import { type FakeWxwork, startFakeWxwork } from '../fakes/wxwork-server.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import { Browser, landing } from '../helpers/oauth-browser.ts';

const redisUrl = process.env.TEST_REDIS_URL;

const dialects = await testDialects();

/** A WeCom sign-in through `t` (the provider answers getuserinfo with the cached token). */
async function wecomSignIn(t: TestApp) {
  const { end } = await new Browser(() => t).trip('/api/third/wxwork/login?redirect=/home');
  if (end.statusCode !== 302) return JSON.parse(end.body) as { error: number };
  return { error: 0, code: landing(end).searchParams.get('wx_token') };
}

describe.skipIf(!redisUrl)('provider tokens shared through Redis', () => {
  let wx: FakeWeixin;
  let ww: FakeWxwork;
  const apps: TestApp[] = [];
  // A fresh official account per run, so other runs sharing the Redis server never collide.
  const mpAppId = `wx${crypto.randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    wx = await startFakeWeixin();
    ww = await startFakeWxwork();
    // A fresh corp per run too.
    ww.corpId = `ww${crypto.randomBytes(8).toString('hex')}`;
    const mpSecret = wx.addApp(mpAppId);
    for (let i = 0; i < 2; i++)
      apps.push(
        await createTestApp('sqlite', {
          publicUrl: 'http://app.test',
          redisUrl,
          weixin: {
            appId: wx.appId,
            secret: wx.secret,
            apiBase: wx.url,
            openBase: wx.url,
            mpAppId,
            mpSecret,
            apps: {},
          },
          wxwork: wxworkConfigOf(ww),
        }),
      );
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await wx?.close();
    await ww?.close();
  });

  it('two instances fetch one token and one ticket, and both sign correctly', async () => {
    const page = 'https://app.test/home';
    const url = `/api/third/weixin/main/wxconfig?url=${encodeURIComponent(page)}`;
    const answers = await Promise.all(
      apps.flatMap((t) =>
        [1, 2, 3].map(() =>
          call<{ appId: string; timestamp: number; nonceStr: string; signature: string }>(t.app, 'GET', url),
        ),
      ),
    );
    for (const a of answers) {
      expect(a.error).toBe(0);
      expect(wx.verify(a.data, page)).toBe(true);
    }
    expect([wx.tokenFetches, wx.ticketFetches]).toEqual([1, 1]);
  });

  it('a refused cached token is fetched again once for all processes, and the calls go through', async () => {
    // Warm: both processes hold the corp's token (one fetch between them).
    expect((await wecomSignIn(apps[0]!)).error).toBe(0);
    expect((await wecomSignIn(apps[1]!)).error).toBe(0);
    expect(ww.tokenFetches).toBe(1);
    // WeCom drops that token: every process's next call is refused once.
    ww.expireTokens();
    const refusals = ww.tokenRefusals;
    // The first process is refused and fetches a new token for everyone …
    expect((await wecomSignIn(apps[0]!)).error).toBe(0);
    expect(ww.tokenFetches).toBe(2);
    // … the second, still holding the old one in memory, is refused too, but must not drop the new
    // one from Redis and fetch a third: it takes the one already fetched.
    const answers = await Promise.all(apps.flatMap((t) => [1, 2, 3].map(() => wecomSignIn(t))));
    expect(answers.map((a) => a.error)).toEqual(Array(6).fill(0));
    expect(ww.tokenFetches).toBe(2);
    expect(ww.tokenRefusals - refusals).toBe(2);
    // The new token serves the next calls without another fetch.
    expect((await wecomSignIn(apps[1]!)).error).toBe(0);
    expect(ww.tokenFetches).toBe(2);
  });

  it('a ticket fetched with a refused token from Redis: the token is fetched again, the signature verifies', async () => {
    // A third process that has nothing in memory; the shared ticket is gone and the shared token stale.
    const t3 = await createTestApp('sqlite', {
      publicUrl: 'http://app.test',
      redisUrl,
      weixin: apps[0]!.app.config.weixin,
    });
    try {
      const { Redis } = await import('ioredis');
      const r = new Redis(redisUrl!);
      await r.del(`lc:third:weixin:jsapi:${mpAppId}`);
      r.disconnect();
      wx.expireTokens();
      const before = [wx.tokenFetches, wx.ticketFetches];
      const page = 'https://app.test/after';
      const a = await call<{ appId: string; timestamp: number; nonceStr: string; signature: string }>(
        t3.app,
        'GET',
        `/api/third/weixin/main/wxconfig?url=${encodeURIComponent(page)}`,
      );
      expect(a.error).toBe(0);
      expect(wx.verify(a.data, page)).toBe(true);
      expect([wx.tokenFetches, wx.ticketFetches]).toEqual([before[0]! + 1, before[1]! + 1]);
    } finally {
      await t3.close();
    }
  });
});

describe.each(dialects)('a refused provider token on %s (one process, no Redis)', (dialect) => {
  let t: TestApp;
  let ww: FakeWxwork;
  beforeAll(async () => {
    ww = await startFakeWxwork();
    t = await createTestApp(dialect, { publicUrl: 'http://app.test', wxwork: wxworkConfigOf(ww) });
  });
  afterAll(async () => {
    await t?.close();
    await ww?.close();
  });

  const users = async () =>
    Number(
      (
        await t.app.database.db
          .selectFrom('users')
          .select((e) => e.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('is fetched again once and the call tried again; refused again, a coded error and nobody made', async () => {
    expect((await wecomSignIn(t)).error).toBe(0);
    expect(ww.tokenFetches).toBe(1);
    ww.expireTokens();
    // Concurrent calls in one process share the one new fetch.
    const answers = await Promise.all([1, 2, 3].map(() => wecomSignIn(t)));
    expect(answers.map((a) => a.error)).toEqual([0, 0, 0]);
    expect(ww.tokenFetches).toBe(2);
    // The provider refuses every token: one new fetch, one retry, then THIRD_PROVIDER.
    const made = await users();
    ww.refuseTokens = true;
    const refusals = ww.tokenRefusals;
    const r = await wecomSignIn(t);
    expect(r.error).toBe(E.THIRD_PROVIDER.code);
    expect(ww.tokenFetches).toBe(3);
    expect(ww.tokenRefusals - refusals).toBe(2);
    expect(await users()).toBe(made);
    ww.refuseTokens = false;
    expect((await wecomSignIn(t)).error).toBe(0);
    expect(ww.tokenFetches).toBe(3);
  });
});
