/** Third-party login when no messaging app is configured: coded "not configured" answers, nobody signed in. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E } from '../../src/shared/errors.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('POST /api/common/user/oauth/id on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers THIRD_NOT_CONFIGURED for a token, plain or sealed', async () => {
    const plain = await call(t.app, 'POST', '/api/common/user/oauth/id', { body: { token: 'wx-abc' } });
    expect([plain.status, plain.error]).toEqual([501, E.THIRD_NOT_CONFIGURED.code]);
    expect(plain.data).toBeUndefined();
    const sealed = await call(t.app, 'POST', '/api/common/user/oauth/id', {
      body: { token: 'wx-abc' },
      sealed: true,
    });
    expect(sealed.error).toBe(E.THIRD_NOT_CONFIGURED.code);
  });

  it('answers THIRD_NOT_CONFIGURED for the WeChat sign-in and its callback, redirecting nowhere', async () => {
    for (const url of ['/api/third/weixin/main/login', '/api/third/weixin/main/callback?code=a&state=b']) {
      const r = await t.app.inject({ method: 'GET', url });
      expect([r.statusCode, JSON.parse(r.body).error]).toEqual([501, E.THIRD_NOT_CONFIGURED.code]);
      expect(r.headers.location).toBeUndefined();
    }
  });

  it('refuses a missing or empty token as a bad request', async () => {
    for (const body of [{}, { token: '' }, { token: 5 }]) {
      const a = await call(t.app, 'POST', '/api/common/user/oauth/id', { body });
      expect(a.status).toBe(400);
      expect(a.error).not.toBe(0);
      expect(a.error).not.toBe(E.THIRD_NOT_CONFIGURED.code);
    }
  });
});
