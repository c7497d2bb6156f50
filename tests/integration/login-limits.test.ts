import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/server/account/service.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import { snapshot } from '../helpers/state.ts';

const dialects = await testDialects();

describe.each(dialects)('sign-in limits on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { loginLimits: { perAddress: 4, perAccount: 3, slowdownMs: 400 } });
    await createUser(t.app.database.db, { account: 'victim1', phone: null, nickname: 'V', pwd: 'right123' });
    await createUser(t.app.database.db, { account: 'victim2', phone: null, nickname: 'V', pwd: 'right123' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const login = async (user: string, pwd: string, from: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/common/user/login',
      remoteAddress: from,
      payload: { user, pwd },
    });
    const body = JSON.parse(res.body) as { error: number; msg?: string };
    return { status: res.statusCode, error: body.error, retryAfter: res.headers['retry-after'] };
  };

  it('one address: failed sign-ins across names are limited, other addresses are not', async () => {
    for (const name of ['spray1', 'spray2', 'spray3', 'spray4']) {
      expect((await login(name, 'guess123', '10.1.0.1')).error).toBe(1104);
    }
    const before = await snapshot(t.app);
    const refused = await login('spray5', 'guess123', '10.1.0.1');
    expect([refused.status, refused.error]).toEqual([429, 1005]);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    // Refused before any password is checked, the right one included; nothing is written.
    expect((await login('victim2', 'right123', '10.1.0.1')).error).toBe(1005);
    expect(await snapshot(t.app)).toBe(before);
    expect((await login('spray5', 'guess123', '10.1.0.2')).error).toBe(1104);
  });

  it('one account: failures from many addresses slow every further try down, the right password too', async () => {
    for (let i = 1; i <= 3; i++) expect((await login('victim1', 'wrong999', `10.2.0.${i}`)).error).toBe(1104);
    const before = await snapshot(t.app);
    const slowed = await login('victim1', 'right123', '10.2.0.9');
    expect([slowed.status, slowed.error]).toEqual([429, 1113]);
    expect(Number(slowed.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(await snapshot(t.app)).toBe(before);
    // A name without an account is treated the same (the answers tell nothing about accounts).
    for (let i = 1; i <= 3; i++)
      expect((await login('nobody77', 'wrong999', `10.3.0.${i}`)).error).toBe(1104);
    expect((await login('nobody77', 'wrong999', '10.3.0.9')).error).toBe(1113);
    // Other accounts are not held back.
    expect((await login('victim2', 'right123', '10.2.0.9')).error).toBe(0);
    // After the wait the right password works, and the account starts afresh.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await login('victim1', 'right123', '10.2.0.9')).error).toBe(0);
    expect((await login('victim1', 'wrong999', '10.2.0.9')).error).toBe(1104);
  });
});
