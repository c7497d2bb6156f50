/**
 * The foundation's done-criterion over real HTTP: a started server on a port, called with fetch,
 * with and without the envelope: register → verify code → login → userInfo → reset password →
 * old token rejected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, seal } from '../../src/shared/envelope.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('account flow over HTTP on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  async function http<T>(method: string, path: string, body?: unknown, token?: string, sealed = false) {
    const headers: Record<string, string> = {};
    if (token) headers.token = token;
    if (sealed) headers['x-envelope'] = '1';
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(base + path, {
      method,
      headers,
      ...(body !== undefined
        ? { body: JSON.stringify(sealed ? { encrypted: seal(body, token) } : body) }
        : {}),
    });
    const json = (await res.json()) as { error: number; data?: T; encrypted?: string; msg?: string };
    if (sealed && json.error === 0) {
      expect(json.encrypted, 'a sealed answer').toBeTypeOf('string');
      expect(json.data).toBeUndefined();
      return { error: 0, data: open<{ data: T }>(json.encrypted, token).data };
    }
    return { error: json.error, data: json.data as T, msg: json.msg };
  }

  for (const sealed of [false, true]) {
    it(`works ${sealed ? 'sealed' : 'raw'}`, async () => {
      const phone = sealed ? '13500000002' : '13500000001';
      const user = sealed ? 'httpSealed1' : 'httpRaw001';
      const captcha = await http<{ ticket: string }>(
        'GET',
        '/api/common/utils/captcha',
        undefined,
        undefined,
        sealed,
      );
      const answer = (await http<{ answer: string }>('GET', `/api/test/captcha/${captcha.data.ticket}`)).data
        .answer;
      const sent = await http(
        'POST',
        '/api/common/utils/verifyCode',
        { phone, ticket: captcha.data.ticket, randstr: answer },
        undefined,
        sealed,
      );
      expect(sent.error).toBe(0);
      const outbox = await http<{ code: string; type: string }[]>('GET', `/api/test/outbox?phone=${phone}`);
      const code = outbox.data.find((m) => m.type === 'reg')!.code;
      const reg = await http(
        'POST',
        '/api/common/user/reg',
        { user, pwd: 'abc12345', phone, verify: code, nickname: 'HTTP' },
        undefined,
        sealed,
      );
      expect(reg.error).toBe(0);
      const login = await http<{ token: string }>(
        'POST',
        '/api/common/user/login',
        { user, pwd: 'abc12345' },
        undefined,
        sealed,
      );
      expect(login.error).toBe(0);
      const token = login.data.token;
      const info = await http<{ account: string }>(
        'GET',
        '/api/common/user/userInfo',
        undefined,
        token,
        sealed,
      );
      expect(info.data.account).toBe(user);

      const c2 = await http<{ ticket: string }>('GET', '/api/common/utils/captcha');
      const a2 = (await http<{ answer: string }>('GET', `/api/test/captcha/${c2.data.ticket}`)).data.answer;
      expect(
        (
          await http(
            'POST',
            '/api/common/utils/verifyCode',
            { phone, ticket: c2.data.ticket, randstr: a2, type: 'reset' },
            undefined,
            sealed,
          )
        ).error,
      ).toBe(0);
      const resetCode = (
        await http<{ code: string; type: string }[]>('GET', `/api/test/outbox?phone=${phone}`)
      ).data.find((m) => m.type === 'reset')!.code;
      expect(
        (
          await http(
            'POST',
            '/api/common/user/resetPwd',
            { pwd: 'newpass77', phone, verify: resetCode },
            undefined,
            sealed,
          )
        ).error,
      ).toBe(0);

      expect((await http('GET', '/api/common/user/userInfo', undefined, token, sealed)).error).toBe(1101);
      expect(
        (await http('POST', '/api/common/user/login', { user, pwd: 'abc12345' }, undefined, sealed)).error,
      ).toBe(1104);
      expect(
        (await http('POST', '/api/common/user/login', { user, pwd: 'newpass77' }, undefined, sealed)).error,
      ).toBe(0);
    });
  }
});
