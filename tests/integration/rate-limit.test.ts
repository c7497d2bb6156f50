import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import { snapshot } from '../helpers/state.ts';

const dialects = await testDialects();

describe.each(dialects)('rate limits on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, {
      rateLimits: { login: 3, verifyCode: 2, captcha: 3, short: 1000, res: 1000, lbs: 1000 },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const limited = (r: { status: number; error: number; msg?: string; raw: string }) => {
    expect(r.error).toBe(1005);
    expect(r.status).toBe(429);
    expect(Object.keys(JSON.parse(r.raw) as object).sort()).toEqual(['error', 'msg']);
  };

  it('login: 1005 after 3 tries of one user name; other names are not held back', async () => {
    const login = (user: string) =>
      call(t.app, 'POST', '/api/common/user/login', { body: { user, pwd: 'abc12345' } });
    for (let i = 0; i < 3; i++) expect((await login('someone1')).error).toBe(1104);
    const before = await snapshot(t.app);
    limited(await login('someone1'));
    limited(await login('someone1'));
    expect(await snapshot(t.app)).toBe(before);
    expect((await login('someone2')).error).toBe(1104);
  });

  it('captcha: 1005 after 3; verifyCode: 1005 after 2', async () => {
    const tickets: Array<{ ticket: string; answer: string }> = [];
    for (let i = 0; i < 3; i++) {
      const c = await call<{ ticket: string }>(t.app, 'GET', '/api/common/utils/captcha');
      expect(c.error).toBe(0);
      tickets.push({ ticket: c.data.ticket, answer: t.app.testHooks!.captchas.get(c.data.ticket)! });
    }
    limited(await call(t.app, 'GET', '/api/common/utils/captcha'));

    const send = (phone: string, c: { ticket: string; answer: string }) =>
      call(t.app, 'POST', '/api/common/utils/verifyCode', {
        body: { phone, ticket: c.ticket, randstr: c.answer, type: 'reg' },
      });
    expect((await send('13500000001', tickets[0]!)).error).toBe(0);
    expect((await send('13500000002', tickets[1]!)).error).toBe(0);
    const before = await snapshot(t.app);
    const outbox = t.app.smsOutbox.length;
    limited(await send('13500000003', tickets[2]!));
    expect(t.app.smsOutbox.length).toBe(outbox);
    expect(await snapshot(t.app)).toBe(before);
  });

  it('short links: 1005 after 2 per user, nothing stored', async () => {
    const s = await createTestApp(dialect, {
      rateLimits: { login: 100, verifyCode: 100, captcha: 100, short: 2, res: 100, lbs: 100 },
    });
    try {
      const { token } = await registerUser(s.app, { user: 'shorty1', pwd: 'abc12345', phone: '13500000011' });
      for (let i = 0; i < 2; i++) {
        const r = await call(s.app, 'POST', '/api/common/utils/short', {
          token,
          body: { url: `https://example.com/${i}` },
        });
        expect(r.error).toBe(0);
      }
      const before = await snapshot(s.app);
      limited(
        await call(s.app, 'POST', '/api/common/utils/short', {
          token,
          body: { url: 'https://example.com/2' },
        }),
      );
      expect(await snapshot(s.app)).toBe(before);
    } finally {
      await s.close();
    }
  });
});
