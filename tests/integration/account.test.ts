import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionsChanged } from '../../src/server/account/session-cache.ts';
import { sha256hex } from '../../src/server/account/tokens.ts';
import { call, createTestApp, registerUser, requestCode, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import { addMember, countRows, insertUser, skipCooldown, snapshot } from '../helpers/state.ts';

const dialects = await testDialects();

interface UserData {
  _id: string;
  account: string;
  nickname: string;
  name: string;
  phone: string;
}

describe.each(dialects)('account endpoints on %s', (dialect) => {
  let t: TestApp;
  // Argon2 is slow on purpose: a few users are registered once and reused.
  const alice = { user: 'alice01', pwd: 'abc12345', phone: '13900000001', token: '', id: '' };
  const bob = { user: 'bob_0001', pwd: 'bob12345', phone: '13900000002', token: '', id: '' };

  const post = <T = unknown>(url: string, body: unknown, token?: string) =>
    call<T>(t.app, 'POST', url, { body, token });
  const get = <T = unknown>(url: string, token?: string) => call<T>(t.app, 'GET', url, { token });
  const login = (user: string, pwd: string) =>
    post<{ token: string; user: UserData }>('/api/common/user/login', { user, pwd });
  const outboxFor = (phone: string) => t.app.smsOutbox.filter((m) => m.phone === phone).length;

  async function captcha(): Promise<{ ticket: string; answer: string }> {
    const c = await get<{ ticket: string; img: string }>('/api/common/utils/captcha');
    expect(c.error).toBe(0);
    return { ticket: c.data.ticket, answer: t.app.testHooks!.captchas.get(c.data.ticket)! };
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    for (const u of [alice, bob]) {
      const r = await registerUser(t.app, { user: u.user, pwd: u.pwd, phone: u.phone });
      u.token = r.token;
      u.id = r.userId;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('login', () => {
    it('answers a token and the user; the user name is trimmed', async () => {
      const r = await login(`  ${alice.user}\t`, alice.pwd);
      expect(r.error).toBe(0);
      expect(r.data.token.length).toBeGreaterThanOrEqual(22);
      expect(r.data.user.account).toBe(alice.user);
      expect(r.data.user).not.toHaveProperty('pwd');
      expect((await get('/api/common/user/userInfo', r.data.token)).error).toBe(0);
    });

    it('signs in by phone too', async () => {
      expect((await login(alice.phone, alice.pwd)).error).toBe(0);
    });

    it('user name `token` treats the password as a token', async () => {
      const r = await login('token', alice.token);
      expect(r.error).toBe(0);
      expect(r.data.token).toBe(alice.token);
      expect(r.data.user._id).toBe(alice.id);
      expect((await login('  token ', ` ${alice.token} `)).data.token).toBe(alice.token);
      expect((await login('token', 'x'.repeat(43))).error).toBe(1101);
      expect((await login('token', 'short')).error).toBe(1101);
    });

    it('unknown user and wrong password answer the same 1104', async () => {
      const unknown = await login('nobody_here', alice.pwd);
      const wrong = await login(alice.user, 'wrong999');
      expect(unknown.error).toBe(1104);
      expect(wrong.error).toBe(1104);
      expect(unknown.status).toBe(wrong.status);
      expect(unknown.raw).toBe(wrong.raw);
    });

    it('empty user or password → 1112 naming the field', async () => {
      const u = await login('   ', alice.pwd);
      expect(u.error).toBe(1112);
      expect(u.msg).toContain('user');
      const p = await login(alice.user, '');
      expect(p.error).toBe(1112);
      expect(p.msg).toContain('pwd');
    });

    it('a banned user gets 1103 (login, token login, existing token), only with the right password', async () => {
      await t.app.database.db
        .updateTable('users')
        .set({ status: 'disabled' })
        .where('id', '=', bob.id)
        .execute();
      // Written behind the service's back: drop the session cache as the service would.
      sessionsChanged();
      try {
        expect((await login(bob.user, bob.pwd)).error).toBe(1103);
        expect((await login(bob.user, 'wrong999')).error).toBe(1104);
        expect((await login('token', bob.token)).error).toBe(1103);
        expect((await get('/api/common/user/userInfo', bob.token)).error).toBe(1103);
      } finally {
        await t.app.database.db
          .updateTable('users')
          .set({ status: 'active' })
          .where('id', '=', bob.id)
          .execute();
        sessionsChanged();
      }
      expect((await get('/api/common/user/userInfo', bob.token)).error).toBe(0);
    });
  });

  describe('userInfo', () => {
    it('answers the caller', async () => {
      const r = await get<UserData>('/api/common/user/userInfo', alice.token);
      expect(r.error).toBe(0);
      expect(r.data).toMatchObject({
        _id: alice.id,
        account: alice.user,
        phone: alice.phone,
        name: 'Tester',
      });
      expect(r.data).not.toHaveProperty('pwd');
    });

    it('no token → 1100; unknown token → 1101', async () => {
      expect((await get('/api/common/user/userInfo')).error).toBe(1100);
      const bad = await get('/api/common/user/userInfo', 'Z'.repeat(43));
      expect(bad.error).toBe(1101);
      expect(bad.status).toBe(401);
    });

    it('an expired session → 1101', async () => {
      const tok = (await login(alice.user, alice.pwd)).data.token;
      expect((await get('/api/common/user/userInfo', tok)).error).toBe(0);
      await t.app.database.db
        .updateTable('sessions')
        .set({ expires_at: Date.now() - 1 })
        .where('token_hash', '=', sha256hex(tok))
        .execute();
      sessionsChanged();
      expect((await get('/api/common/user/userInfo', tok)).error).toBe(1101);
      expect((await login('token', tok)).error).toBe(1101);
    });

    it('works through the envelope', async () => {
      const r = await call<UserData>(t.app, 'GET', '/api/common/user/userInfo', {
        token: alice.token,
        sealed: true,
      });
      expect(r.error).toBe(0);
      expect(r.raw).not.toContain(alice.phone);
      expect(r.data.account).toBe(alice.user);
    });
  });

  describe('captcha', () => {
    it('answers a ticket and an SVG image', async () => {
      const c = await get<{ ticket: string; img: string }>('/api/common/utils/captcha');
      expect(c.data.ticket).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(c.data.img).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(Buffer.from(c.data.img.split(',')[1]!, 'base64').toString()).toContain('<svg');
    });

    const send = (phone: string, ticket: string, randstr: string, type = 'reg') =>
      post('/api/common/utils/verifyCode', { phone, ticket, randstr, type });

    it('a wrong answer → 1108 and spends the ticket', async () => {
      const c = await captcha();
      expect((await send('13900000101', c.ticket, 'zzzz')).error).toBe(1108);
      expect((await send('13900000101', c.ticket, c.answer)).error).toBe(1108);
      expect(outboxFor('13900000101')).toBe(0);
    });

    it('is single use; the answer is not case-sensitive', async () => {
      const c = await captcha();
      expect((await send('13900000102', c.ticket, ` ${c.answer.toUpperCase()} `)).error).toBe(0);
      await skipCooldown(t.app, '13900000102');
      expect((await send('13900000102', c.ticket, c.answer)).error).toBe(1108);
    });

    it('an unknown ticket → 1108', async () => {
      expect((await send('13900000103', 'x'.repeat(32), 'abcd')).error).toBe(1108);
    });

    it('an expired ticket → 1108', async () => {
      const c = await captcha();
      await t.app.database.db
        .updateTable('captchas')
        .set({ expires_at: Date.now() - 1 })
        .where('id', '=', c.ticket)
        .execute();
      expect((await send('13900000104', c.ticket, c.answer)).error).toBe(1108);
    });
  });

  describe('verifyCode', () => {
    const send = async (phone: string, type: string, token?: string) => {
      const c = await captcha();
      return call<{ sent: boolean }>(t.app, 'POST', '/api/common/utils/verifyCode', {
        body: { phone, ticket: c.ticket, randstr: c.answer, type },
        token,
      });
    };

    it('sends a 6-digit code through the provider', async () => {
      const before = outboxFor('13900000201');
      const r = await send('13900000201', 'reg');
      expect(r.error).toBe(0);
      expect(r.data.sent).toBe(true);
      const sent = t.app.smsOutbox.filter((m) => m.phone === '13900000201');
      expect(sent.length).toBe(before + 1);
      expect(sent.at(-1)!.code).toMatch(/^\d{6}$/);
      expect(sent.at(-1)!.type).toBe('reg');
    });

    it('a second code within 60 s → 1109; after the cool-down it is sent', async () => {
      expect((await send('13900000202', 'reg')).error).toBe(0);
      const again = await send('13900000202', 'reg');
      expect(again.error).toBe(1109);
      expect(outboxFor('13900000202')).toBe(1);
      await skipCooldown(t.app, '13900000202');
      expect((await send('13900000202', 'reg')).error).toBe(0);
      expect(outboxFor('13900000202')).toBe(2);
    });

    it('type defaults to reg; a registered phone cannot ask for a reg code (1106)', async () => {
      const c = await captcha();
      const r = await post('/api/common/utils/verifyCode', {
        phone: alice.phone,
        ticket: c.ticket,
        randstr: c.answer,
      });
      expect(r.error).toBe(1106);
    });

    it('reset to an unknown phone answers success but sends nothing', async () => {
      const before = t.app.smsOutbox.length;
      const r = await send('13900000203', 'reset');
      expect(r.error).toBe(0);
      expect(r.data.sent).toBe(true);
      expect(t.app.smsOutbox.length).toBe(before);
      expect(await countRows(t.app, 'verify_codes')).toBeGreaterThan(0);
      const stored = await t.app.database.db
        .selectFrom('verify_codes')
        .select('id')
        .where('phone', '=', '13900000203')
        .execute();
      expect(stored).toHaveLength(0);
    });

    it('a phone code needs a signed-in caller (1100)', async () => {
      expect((await send('13900000204', 'phone')).error).toBe(1100);
    });

    it('a bad phone → 1112 naming phone, before the captcha is spent', async () => {
      const c = await captcha();
      const r = await post('/api/common/utils/verifyCode', {
        phone: '123',
        ticket: c.ticket,
        randstr: c.answer,
      });
      expect(r.error).toBe(1112);
      expect(r.msg).toContain('phone');
    });
  });

  describe('reg', () => {
    const regBody = (over: Record<string, unknown> = {}) => ({
      user: 'newbie01',
      pwd: 'abc12345',
      phone: '13900000301',
      verify: '123456',
      nickname: 'Newbie',
      ...over,
    });

    it.each([
      ['user', { user: '1starts' }],
      ['user', { user: 'short' }],
      ['user', { user: 'a'.repeat(17) }],
      ['user', { user: '用户名字用户' }],
      ['pwd', { pwd: 'abcdefgh' }],
      ['pwd', { pwd: '1234567' }],
      ['pwd', { pwd: 'a1' }],
      ['pwd', { pwd: `a1${'x'.repeat(31)}` }],
      ['phone', { phone: '123' }],
      ['verify', { verify: '12345' }],
      ['verify', { verify: 'abcdef' }],
      ['nickname', { nickname: 'x'.repeat(13) }],
      ['nickname', { nickname: '   ' }],
    ])('violating the %s rule → 1112 naming it, nothing created', async (field, over) => {
      const before = await snapshot(t.app);
      const r = await post('/api/common/user/reg', regBody(over));
      expect(r.error).toBe(1112);
      expect(r.status).toBe(400);
      expect(r.msg).toMatch(new RegExp(`^format does not match: ${field}: `));
      expect(await snapshot(t.app)).toBe(before);
    });

    it('account taken → 1105; phone taken → 1106', async () => {
      const before = await snapshot(t.app);
      expect((await post('/api/common/user/reg', regBody({ user: alice.user }))).error).toBe(1105);
      expect((await post('/api/common/user/reg', regBody({ user: ` ${alice.user} ` }))).error).toBe(1105);
      expect((await post('/api/common/user/reg', regBody({ phone: alice.phone }))).error).toBe(1106);
      expect(await snapshot(t.app)).toBe(before);
    });

    it('a wrong code → 1107; the code is void after 5 wrong tries', async () => {
      const phone = '13900000302';
      const code = await requestCode(t.app, phone, 'reg');
      const wrong = code === '000000' ? '000001' : '000000';
      for (let i = 0; i < 5; i++) {
        expect((await post('/api/common/user/reg', regBody({ phone, verify: wrong }))).error).toBe(1107);
      }
      const r = await post('/api/common/user/reg', regBody({ phone, verify: code }));
      expect(r.error).toBe(1107);
      expect(await countRows(t.app, 'users')).toBe(2);
    });

    it('an expired code → 1107', async () => {
      const phone = '13900000303';
      const code = await requestCode(t.app, phone, 'reg');
      await t.app.database.db
        .updateTable('verify_codes')
        .set({ expires_at: Date.now() - 1 })
        .where('phone', '=', phone)
        .execute();
      expect((await post('/api/common/user/reg', regBody({ phone, verify: code }))).error).toBe(1107);
    });

    it('a code of another type or phone → 1107', async () => {
      const phone = '13900000304';
      const code = await requestCode(t.app, phone, 'reg');
      expect(
        (await post('/api/common/user/reg', regBody({ phone: '13900000305', verify: code }))).error,
      ).toBe(1107);
      const other = await requestCode(t.app, bob.phone, 'reset');
      // A reset code sent to another phone; equal digits by chance (1 in 10^6) would prove nothing.
      if (other !== code) {
        expect((await post('/api/common/user/reg', regBody({ phone, verify: other }))).error).toBe(1107);
      }
    });

    it('registers with a right code, which is then spent', async () => {
      const phone = '13900000306';
      const code = await requestCode(t.app, phone, 'reg');
      const r = await post<{ user: UserData; project: null }>(
        '/api/common/user/reg',
        regBody({ user: 'carol_01', phone, verify: code, nickname: ' Carol ' }),
      );
      expect(r.error).toBe(0);
      expect(r.data.user).toMatchObject({ account: 'carol_01', phone, nickname: 'Carol' });
      expect(r.data.project).toBeNull();
      const again = await post(
        '/api/common/user/reg',
        regBody({ user: 'carol_02', phone: '13900000307', verify: code }),
      );
      expect(again.error).toBe(1107);
      expect((await login('carol_01', 'abc12345')).error).toBe(0);
    });

    describe('into a project', () => {
      let projectId = '';
      beforeAll(async () => {
        const p = await post<{ _id: string }>(
          '/api/common/project/create',
          { name: 'Reg target' },
          alice.token,
        );
        projectId = p.data._id;
      });

      it('is refused with 1102 unless reg.enable is set; nothing created, code kept', async () => {
        const phone = '13900000401';
        const code = await requestCode(t.app, phone, 'reg');
        const before = await snapshot(t.app);
        const r = await post(
          '/api/common/user/reg',
          regBody({ user: 'joiner01', phone, verify: code, project: projectId }),
        );
        expect(r.error).toBe(1102);
        expect(await snapshot(t.app)).toBe(before);
        // The code was not consumed by the refused attempt.
        expect(
          (await post('/api/common/user/reg', regBody({ user: 'joiner01', phone, verify: code }))).error,
        ).toBe(0);
      });

      it('an unknown project → 1200', async () => {
        const r = await post('/api/common/user/reg', regBody({ project: 'a'.repeat(24) }));
        expect(r.error).toBe(1200);
      });

      it('joins as a common member when reg.enable is set', async () => {
        const set = await post(
          `/api/admin/project/${projectId}/custom/set`,
          { reg: { enable: true } },
          alice.token,
        );
        expect(set.error).toBe(0);
        const phone = '13900000402';
        const code = await requestCode(t.app, phone, 'reg');
        const r = await post<{ user: UserData; project: string }>(
          '/api/common/user/reg',
          regBody({ user: 'joiner02', phone, verify: code, project: projectId }),
        );
        expect(r.error).toBe(0);
        expect(r.data.project).toBe(projectId);
        const l = await login('joiner02', 'abc12345');
        const list = await get<Array<{ _id: string; role: string }>>(
          '/api/common/project/list',
          l.data.token,
        );
        expect(list.data).toEqual([expect.objectContaining({ _id: projectId, role: 'common' })]);
      });

      it('a role not open for registration → 1102', async () => {
        const r = await post('/api/common/user/reg', regBody({ project: projectId, role: 'b'.repeat(24) }));
        expect(r.error).toBe(1102);
      });

      it('member quota of the tier reached → 104, nothing created', async () => {
        // Tier 0 allows 5 members: owner + joiner02 + 3 more fill it.
        for (let i = 0; i < 3; i++) await addMember(t.app, projectId, await insertUser(t.app, `filler_${i}`));
        const phone = '13900000403';
        const code = await requestCode(t.app, phone, 'reg');
        const before = await snapshot(t.app);
        const r = await post(
          '/api/common/user/reg',
          regBody({ user: 'joiner03', phone, verify: code, project: projectId }),
        );
        expect(r.error).toBe(104);
        expect(r.status).toBe(403);
        expect(await snapshot(t.app)).toBe(before);
        // A higher tier has room.
        await t.app.database.db
          .updateTable('projects')
          .set({ tier: 1 })
          .where('id', '=', projectId)
          .execute();
        const ok = await post(
          '/api/common/user/reg',
          regBody({ user: 'joiner03', phone, verify: code, project: projectId }),
        );
        expect(ok.error).toBe(0);
      });
    });
  });

  describe('update', () => {
    it('changes the nickname (trimmed) and the display name', async () => {
      const r = await post<UserData>('/api/common/user/update', { nickname: '  Alice A ' }, alice.token);
      expect(r.error).toBe(0);
      expect(r.data.nickname).toBe('Alice A');
      expect(r.data.name).toBe('Alice A');
      const w = await post<UserData>('/api/common/user/update', { nickname: 'weixin_abc' }, alice.token);
      expect(w.data.name).toBe('微信用户');
      await post('/api/common/user/update', { nickname: 'Alice' }, alice.token);
    });

    it('a nickname over 12 characters → 1112 naming nickname; nothing changed', async () => {
      const before = await snapshot(t.app);
      const r = await post('/api/common/user/update', { nickname: 'abcdefghijklm' }, alice.token);
      expect(r.error).toBe(1112);
      expect(r.msg).toContain('nickname');
      expect((await post('/api/common/user/update', { nickname: '' }, alice.token)).error).toBe(1112);
      expect(await snapshot(t.app)).toBe(before);
    });

    it('12 emoji are 12 characters', async () => {
      const r = await post<UserData>('/api/common/user/update', { nickname: '😀'.repeat(12) }, alice.token);
      expect(r.error).toBe(0);
      await post('/api/common/user/update', { nickname: 'Alice' }, alice.token);
    });

    it('an avatar must be an http(s) or rooted URL', async () => {
      expect(
        (await post('/api/common/user/update', { avatar: 'javascript:alert(1)' }, alice.token)).error,
      ).toBe(1112);
      const ok = await post<{ avatar: string }>(
        '/api/common/user/update',
        { avatar: '/img/a.png' },
        alice.token,
      );
      expect(ok.data.avatar).toBe('/img/a.png');
      expect((await post('/api/common/user/update', { avatar: null }, alice.token)).error).toBe(0);
    });

    it('needs a signed-in caller', async () => {
      expect((await post('/api/common/user/update', { nickname: 'x' })).error).toBe(1100);
    });
  });

  describe('phone change', () => {
    it('needs the login password (1111) and a phone code', async () => {
      const phone = '13900000501';
      const code = await requestCode(t.app, phone, 'phone', bob.token);
      const before = await snapshot(t.app);
      const wrongPwd = await post(
        '/api/common/user/phone',
        { phone, verify: code, pwd: 'wrong999' },
        bob.token,
      );
      expect(wrongPwd.error).toBe(1111);
      expect(await snapshot(t.app)).toBe(before);

      // A reg code for the same phone is not a phone code.
      const regCode = await requestCode(t.app, phone, 'reg');
      if (regCode !== code) {
        expect(
          (await post('/api/common/user/phone', { phone, verify: regCode, pwd: bob.pwd }, bob.token)).error,
        ).toBe(1107);
      }
      const r = await post<UserData>(
        '/api/common/user/phone',
        { phone, verify: code, pwd: bob.pwd },
        bob.token,
      );
      expect(r.error).toBe(0);
      expect(r.data.phone).toBe(phone);
      expect((await login(phone, bob.pwd)).error).toBe(0);
      expect((await login(bob.phone, bob.pwd)).error).toBe(1104);
      bob.phone = phone;
    });

    it('a phone another user has → 1106', async () => {
      const c = await captcha();
      const sent = await post(
        '/api/common/utils/verifyCode',
        { phone: alice.phone, ticket: c.ticket, randstr: c.answer, type: 'phone' },
        bob.token,
      );
      expect(sent.error).toBe(1106);
      const r = await post(
        '/api/common/user/phone',
        { phone: alice.phone, verify: '123456', pwd: bob.pwd },
        bob.token,
      );
      expect(r.error).toBe(1106);
    });
  });

  describe('password change and logout', () => {
    it('the new password must differ (1112); a wrong current one → 1111', async () => {
      const before = await snapshot(t.app);
      const same = await post('/api/common/user/password', { pwd: bob.pwd, newPwd: bob.pwd }, bob.token);
      expect(same.error).toBe(1112);
      expect(same.msg).toContain('newPwd');
      const weak = await post('/api/common/user/password', { pwd: bob.pwd, newPwd: 'abcdefgh' }, bob.token);
      expect(weak.error).toBe(1112);
      const wrong = await post(
        '/api/common/user/password',
        { pwd: 'wrong999', newPwd: 'next1234' },
        bob.token,
      );
      expect(wrong.error).toBe(1111);
      expect(await snapshot(t.app)).toBe(before);
    });

    it('ends every session and answers a working new token', async () => {
      const other = (await login(bob.user, bob.pwd)).data.token;
      const r = await post<{ token: string }>(
        '/api/common/user/password',
        { pwd: bob.pwd, newPwd: 'next1234' },
        bob.token,
      );
      expect(r.error).toBe(0);
      expect((await get('/api/common/user/userInfo', bob.token)).error).toBe(1101);
      expect((await get('/api/common/user/userInfo', other)).error).toBe(1101);
      expect((await get('/api/common/user/userInfo', r.data.token)).error).toBe(0);
      expect((await login(bob.user, bob.pwd)).error).toBe(1104);
      expect((await login(bob.user, 'next1234')).error).toBe(0);
      bob.pwd = 'next1234';
      bob.token = r.data.token;
    });

    it.each(['GET', 'POST'] as const)('logout by %s ends only that session', async (method) => {
      const a = (await login(bob.user, bob.pwd)).data.token;
      const b = (await login(bob.user, bob.pwd)).data.token;
      const r = await call<{ logout: boolean }>(t.app, method, '/api/common/user/logout', { token: a });
      expect(r.error).toBe(0);
      expect(r.data.logout).toBe(true);
      expect((await get('/api/common/user/userInfo', a)).error).toBe(1101);
      expect((await get('/api/common/user/userInfo', b)).error).toBe(0);
      expect((await call(t.app, method, '/api/common/user/logout', { token: a })).error).toBe(1101);
      expect((await call(t.app, method, '/api/common/user/logout')).error).toBe(1100);
    });
  });

  describe('resetPwd', () => {
    it('sets the password and revokes all sessions; the code is single use', async () => {
      const tokens = [alice.token, (await login(alice.user, alice.pwd)).data.token];
      await skipCooldown(t.app, alice.phone);
      const code = await requestCode(t.app, alice.phone, 'reset');
      const r = await post<{ reset: boolean }>('/api/common/user/resetPwd', {
        pwd: 'reset123',
        phone: alice.phone,
        verify: code,
      });
      expect(r.error).toBe(0);
      expect(r.data.reset).toBe(true);
      for (const tok of tokens) expect((await get('/api/common/user/userInfo', tok)).error).toBe(1101);
      const reuse = await post('/api/common/user/resetPwd', {
        pwd: 'again123',
        phone: alice.phone,
        verify: code,
      });
      expect(reuse.error).toBe(1107);
      expect((await login(alice.user, 'reset123')).error).toBe(0);
      alice.pwd = 'reset123';
      alice.token = (await login(alice.user, alice.pwd)).data.token;
    });

    it('rules apply (1112) and a reg code is not a reset code (1107)', async () => {
      const before = await snapshot(t.app);
      expect(
        (await post('/api/common/user/resetPwd', { pwd: 'abcdefgh', phone: alice.phone, verify: '123456' }))
          .error,
      ).toBe(1112);
      expect(
        (await post('/api/common/user/resetPwd', { pwd: 'abc12345', phone: 'x', verify: '123456' })).error,
      ).toBe(1112);
      expect(
        (await post('/api/common/user/resetPwd', { pwd: 'abc12345', phone: alice.phone, verify: '12' }))
          .error,
      ).toBe(1112);
      expect(await snapshot(t.app)).toBe(before);
      const phone = '13900000601';
      const regCode = await requestCode(t.app, phone, 'reg');
      expect(
        (await post('/api/common/user/resetPwd', { pwd: 'abc12345', phone, verify: regCode })).error,
      ).toBe(1107);
    });

    it('an unknown phone → 1107', async () => {
      expect(
        (await post('/api/common/user/resetPwd', { pwd: 'abc12345', phone: '13900000602', verify: '123456' }))
          .error,
      ).toBe(1107);
    });
  });
});
