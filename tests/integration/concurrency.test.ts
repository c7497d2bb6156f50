import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerUser, requestCode, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

/** One-time secrets must stay one-time when requests race: the checks are read-then-write. */
describe.each(dialects)('one-time codes under concurrency on %s', (dialect) => {
  let t: TestApp;
  const phone = '13400000001';
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await registerUser(t.app, { user: 'racer_01', pwd: 'abc12345', phone });
  });
  afterAll(async () => {
    await t?.close();
  });

  const reset = (verify: string, pwd = 'new12345') =>
    call(t.app, 'POST', '/api/common/user/resetPwd', { body: { pwd, phone, verify } });

  it('parallel wrong guesses still void the code after 5 tries', async () => {
    const code = await requestCode(t.app, phone, 'reset');
    const wrong = Array.from({ length: 20 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
    );
    const answers = await Promise.all(wrong.map((w) => reset(w)));
    expect(answers.every((a) => a.error === 1107)).toBe(true);
    const rows = await t.app.database.db
      .selectFrom('verify_codes')
      .select('tries')
      .where('phone', '=', phone)
      .execute();
    expect(rows.length === 0 || rows.every((r) => r.tries >= 5)).toBe(true);
    expect((await reset(code)).error).toBe(1107);
  });

  it('a right code used twice at once works once', async () => {
    await t.app.database.db.deleteFrom('verify_codes').where('phone', '=', phone).execute();
    const code = await requestCode(t.app, phone, 'reset');
    const answers = await Promise.all([
      reset(code, 'first123'),
      reset(code, 'second12'),
      reset(code, 'third123'),
    ]);
    expect(answers.map((a) => a.error).sort()).toEqual([0, 1107, 1107]);
  });

  it('a captcha ticket used twice at once works once', async () => {
    const c = await call<{ ticket: string }>(t.app, 'GET', '/api/common/utils/captcha');
    const answer = t.app.testHooks!.captchas.get(c.data.ticket)!;
    const phones = ['13400000011', '13400000012', '13400000013'];
    const answers = await Promise.all(
      phones.map((p) =>
        call(t.app, 'POST', '/api/common/utils/verifyCode', {
          body: { phone: p, ticket: c.data.ticket, randstr: answer, type: 'reg' },
        }),
      ),
    );
    expect(answers.map((a) => a.error).sort()).toEqual([0, 1108, 1108]);
    expect(t.app.smsOutbox.filter((m) => phones.includes(m.phone))).toHaveLength(1);
  });
});
