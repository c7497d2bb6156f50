import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, seal, sealText } from '../../src/shared/envelope.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import { snapshot } from '../helpers/state.ts';

const dialects = await testDialects();

describe.each(dialects)('request envelope over HTTP on %s', (dialect) => {
  let t: TestApp;
  let noDebug: TestApp;
  let token = '';
  beforeAll(async () => {
    t = await createTestApp(dialect);
    noDebug = await createTestApp(dialect, { allowDebug: false });
    token = (await registerUser(t.app, { user: 'sealer01', pwd: 'abc12345', phone: '13300000001' })).token;
  });
  afterAll(async () => {
    await t?.close();
    await noDebug?.close();
  });

  const inject = (app: TestApp, url: string, payload: unknown, headers: Record<string, string> = {}) =>
    app.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(payload),
    });

  it('a sealed request gets a sealed answer under the caller’s token', async () => {
    const res = await inject(
      t,
      '/api/common/user/update',
      { encrypted: seal({ nickname: 'Sealed' }, token) },
      { token },
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-envelope']).toBe('1');
    const body = JSON.parse(res.body) as { error: number; encrypted: string };
    expect(Object.keys(body).sort()).toEqual(['encrypted', 'error']);
    expect(res.body).not.toContain('Sealed');
    expect(open<{ data: { nickname: string } }>(body.encrypted, token).data.nickname).toBe('Sealed');
    expect(() => open(body.encrypted, undefined)).toThrow();
  });

  it('a GET with x-envelope: 1 gets a sealed answer; without it, plain', async () => {
    const sealed = await t.app.inject({
      method: 'GET',
      url: '/api/common/user/userInfo',
      headers: { token, 'x-envelope': '1' },
    });
    expect(JSON.parse(sealed.body)).toHaveProperty('encrypted');
    const plain = await call<{ account: string }>(t.app, 'GET', '/api/common/user/userInfo', { token });
    expect(plain.data.account).toBe('sealer01');
    expect(plain.raw).not.toContain('encrypted');
  });

  it('a body sealed under the default key while a token is sent → 1004, nothing changed', async () => {
    const before = await snapshot(t.app);
    const res = await inject(
      t,
      '/api/common/user/update',
      { encrypted: seal({ nickname: 'Nope' }, undefined) },
      { token },
    );
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: 1004, msg: 'invalid envelope' });
    expect(await snapshot(t.app)).toBe(before);
  });

  it('every envelope failure answers the same body', async () => {
    const bodies = new Set<string>();
    for (const encrypted of [
      '',
      'AAAA',
      '!!',
      42,
      null,
      seal({ a: 1 }, 'another-token-0123456789'),
      seal('x', token).slice(0, -4),
    ]) {
      const res = await inject(t, '/api/common/user/update', { encrypted }, { token });
      bodies.add(`${res.statusCode} ${res.body}`);
    }
    expect([...bodies]).toEqual(['400 {"error":1004,"msg":"invalid envelope"}']);
  });

  it('errors inside a sealed exchange stay plain and carry no data', async () => {
    const res = await inject(
      t,
      '/api/common/user/update',
      { encrypted: seal({ nickname: 'x'.repeat(13) }, token) },
      { token },
    );
    expect(JSON.parse(res.body)).toMatchObject({ error: 1112 });
    expect(res.headers['x-envelope']).toBeUndefined();
  });

  it('debug mode adds the plain answer only when allowed', async () => {
    const payload = { encrypted: seal({ user: 'sealer01', pwd: 'abc12345' }, undefined) };
    const dbg = JSON.parse((await inject(t, '/api/common/user/login', payload, { 'x-debug': '1' })).body) as {
      debug?: { data: { user: { account: string } } };
    };
    expect(dbg.debug?.data.user.account).toBe('sealer01');
    await registerUser(noDebug.app, { user: 'sealer01', pwd: 'abc12345', phone: '13300000001' });
    const off = JSON.parse(
      (await inject(noDebug, '/api/common/user/login', payload, { 'x-debug': '1' })).body,
    ) as object;
    expect(off).not.toHaveProperty('debug');
    expect(off).toHaveProperty('encrypted');
  });

  it('a sealed __proto__ key pollutes nothing and is not stored', async () => {
    const text = '{"__proto__":{"polluted":true},"nickname":"Proto"}';
    const res = await inject(t, '/api/common/user/update', { encrypted: sealText(text, token) }, { token });
    expect(res.statusCode).not.toBe(500);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    const row = await t.app.database.db
      .selectFrom('users')
      .select('nickname')
      .where('account', '=', 'sealer01')
      .executeTakeFirstOrThrow();
    expect(row.nickname).not.toContain('polluted');
  });

  it('an object with keys besides encrypted and debug is not an envelope', async () => {
    const res = await inject(t, '/api/common/user/login', {
      encrypted: seal({ user: 'a', pwd: 'b' }, undefined),
      user: 'sealer01',
    });
    expect(JSON.parse(res.body)).toMatchObject({ error: 1000 });
  });
});
