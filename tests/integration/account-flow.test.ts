import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerUser, requestCode, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('account flow on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  for (const sealed of [false, true]) {
    it(`register → code → login → userInfo → reset → old token rejected (${sealed ? 'sealed' : 'raw'})`, async () => {
      const phone = sealed ? '13800000002' : '13800000001';
      const user = sealed ? 'sealedUser1' : 'rawUser01';
      const { token } = await registerUser(t.app, { user, pwd: 'abc12345', phone }, { sealed });
      const info = await call<{ account: string; name: string }>(t.app, 'GET', '/api/common/user/userInfo', {
        token,
        sealed,
      });
      expect(info.error).toBe(0);
      expect(info.data.account).toBe(user);
      if (sealed) expect(info.raw).toContain('"encrypted"');

      const code = await requestCode(t.app, phone, 'reset');
      const reset = await call(t.app, 'POST', '/api/common/user/resetPwd', {
        body: { pwd: 'newpass99', phone, verify: code },
        sealed,
      });
      expect(reset.error).toBe(0);

      const stale = await call(t.app, 'GET', '/api/common/user/userInfo', { token, sealed });
      expect(stale.error).toBe(1101);

      const oldLogin = await call(t.app, 'POST', '/api/common/user/login', {
        body: { user, pwd: 'abc12345' },
      });
      expect(oldLogin.error).toBe(1104);
      const newLogin = await call<{ token: string }>(t.app, 'POST', '/api/common/user/login', {
        body: { user: `  ${user} `, pwd: 'newpass99' },
        sealed,
      });
      expect(newLogin.error).toBe(0);
      const again = await call(t.app, 'GET', '/api/common/user/userInfo', {
        token: newLogin.data.token,
        sealed,
      });
      expect(again.error).toBe(0);
    });
  }
});
