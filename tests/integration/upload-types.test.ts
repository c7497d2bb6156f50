/**
 * Uploads whose name or declared type lies about their bytes, executables, oversized files, and who
 * may upload (write access to a table of the project), on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grayPng } from '../../src/server/data/xlsx/images.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

function form(name: string, data: Buffer, type = 'application/octet-stream') {
  const boundary = '----lcTypesBoundary9QZ';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

describe.each(dialects)('upload types and rights on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let clerk: string;
  let guest: string;
  let project: string;
  let granted: string;
  let other: string;
  const png = grayPng(8, 8, () => 128);
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

  async function post(query: string, f: { body: Buffer; type: string }, token?: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/app/util/${project}/upload${query}`,
      headers: { ...(token ? { token } : {}), 'content-type': f.type },
      payload: f.body,
    });
    return {
      status: res.statusCode,
      ...(JSON.parse(res.body) as { error: number; msg: string; data: Record<string, unknown> }),
    };
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, {
      user: 'utowner1',
      pwd: 'abc12345',
      phone: '13600000071',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'U' },
      })
    ).data._id;
    const P = `/api/admin/project/${project}`;
    granted = (
      await call<{ _id: string }>(t.app, 'POST', `${P}/entity/create`, {
        token: owner,
        body: { name: 'A', code: 'a' },
      })
    ).data._id;
    other = (
      await call<{ _id: string }>(t.app, 'POST', `${P}/entity/create`, {
        token: owner,
        body: { name: 'B', code: 'b' },
      })
    ).data._id;
    const A = `/api/admin/auth/${project}/main/role`;
    const yes = await call<{ _id: string }>(t.app, 'POST', `${A}/create`, {
      token: owner,
      body: { name: 'Clerk' },
    });
    const no = await call<{ _id: string }>(t.app, 'POST', `${A}/create`, {
      token: owner,
      body: { name: 'Guest' },
    });
    expect(
      (await call(t.app, 'POST', `${A}/${yes.data._id}/bind`, { token: owner, body: { entity: [granted] } }))
        .error,
    ).toBe(0);
    const U = `/api/admin/user/${project}`;
    for (const [account, role] of [
      ['upclerk01', yes.data._id],
      ['upguest01', no.data._id],
    ] as const) {
      const r = await call(t.app, 'POST', `${U}/create`, {
        token: owner,
        body: { role, account, pwd: 'abc12345', name: account },
      });
      expect(r.error, r.raw).toBe(0);
    }
    const login = async (user: string) =>
      (
        await call<{ token: string }>(t.app, 'POST', '/api/common/user/login', {
          body: { user, pwd: 'abc12345' },
        })
      ).data.token;
    clerk = await login('upclerk01');
    guest = await login('upguest01');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps honest files and answers the sniffed content type', async () => {
    const a = await post('?type=file', form('report.pdf', pdf, 'application/pdf'), owner);
    expect(a.error, a.msg).toBe(0);
    expect(a.data).toMatchObject({ name: 'report.pdf', size: pdf.length, mime: 'application/pdf' });
    const b = await post('?type=file', form('notes.txt', Buffer.from('hello')), owner);
    expect(b.error, b.msg).toBe(0);
    expect(b.data.mime).toBeUndefined();
    const c = await post('?type=image', form('p.png', png, 'image/png'), owner);
    expect(c.data).toMatchObject({ mime: 'image/png', type: 'image' });
  });

  it('refuses files whose name or declared type lies, and executables, with coded errors', async () => {
    const cases: [string, Buffer, string, string, number][] = [
      ['?type=file', png, 'report.pdf', 'application/octet-stream', 1967],
      ['?type=file', Buffer.from('plain text'), 'photo.png', 'application/octet-stream', 1967],
      ['?type=file', Buffer.from('plain text'), 'sheet.xlsx', 'application/octet-stream', 1967],
      ['?type=file', pdf, 'data.csv', 'text/csv', 1967],
      ['?type=file', Buffer.from('plain text'), 'a.bin', 'image/png', 1967],
      ['?type=file', pdf, 'a.bin', 'image/jpeg', 1967],
      ['?type=image', png, 'p.jpg', 'image/png', 1967],
      [
        '?type=file',
        Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]),
        'setup.exe',
        'application/octet-stream',
        1968,
      ],
      [
        '?type=file',
        Buffer.concat([Buffer.from('\u007fELF'), Buffer.alloc(200)]),
        'tool.txt',
        'text/plain',
        1968,
      ],
    ];
    for (const [q, bytes, name, type, code] of cases) {
      const r = await post(q, form(name, bytes, type), owner);
      expect([r.error, r.status], `${name} as ${type}`).toEqual([
        code,
        code === 1967 || code === 1968 ? 415 : 400,
      ]);
    }
    // Oversized: refused before anything is stored.
    const big = await post(
      '?type=file&name=big.bin',
      { body: Buffer.alloc(20480 * 1024 + 1), type: 'application/octet-stream' },
      owner,
    );
    expect([big.status, big.error]).toEqual([413, 1470]);
  });

  it('only members who may write a table upload; ?entity= asks for that table', async () => {
    const f = form('a.pdf', pdf);
    expect((await post('', f, clerk)).error).toBe(0);
    expect((await post(`?entity=${granted}`, f, clerk)).error).toBe(0);
    expect((await post(`?entity=${other}`, f, clerk)).error).toBe(1102);
    expect((await post('', f, guest)).error).toBe(1969);
    expect((await post('', f)).error).toBe(1100);
    const policy = await call<{ uploadAction: string }>(
      t.app,
      'GET',
      `/api/app/util/${project}/upload?type=image&entity=${granted}`,
      {
        token: clerk,
      },
    );
    expect(policy.data.uploadAction).toBe(`/api/app/util/${project}/upload?type=image&entity=${granted}`);
    expect((await call(t.app, 'GET', `/api/app/util/${project}/upload`, { token: guest })).error).toBe(1969);
  });
});
