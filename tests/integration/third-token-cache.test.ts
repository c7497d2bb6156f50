/**
 * Provider tokens and tickets are shared through Redis: two app processes (two instances here)
 * signing wx.config at the same time fetch one access token and one jsapi_ticket between them, and
 * both signatures verify. Runs when TEST_REDIS_URL is set (as in CI).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeWeixin, startFakeWeixin } from '../fakes/weixin-server.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('provider tokens shared through Redis', () => {
  let wx: FakeWeixin;
  const apps: TestApp[] = [];
  // A fresh official account per run, so other runs sharing the Redis server never collide.
  const mpAppId = `wx${crypto.randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    wx = await startFakeWeixin();
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
        }),
      );
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await wx?.close();
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
});
