import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grayPng } from '../../src/server/data/xlsx/images.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

/** A multipart/form-data body with one file part. */
function form(name: string, data: Buffer, field = 'file') {
  const boundary = '----lcTestBoundary7MA4YWxk';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

describe.each(dialects)('upload store on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let stranger: string;
  let project: string;
  const png = grayPng(30, 20, (x, y) => ((x + y) % 2 ? 0 : 255));

  async function post(query: string, payload: Buffer, contentType: string, token?: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/app/util/${project}/upload${query}`,
      headers: { ...(token ? { token } : {}), 'content-type': contentType },
      payload,
    });
    return {
      status: res.statusCode,
      ...(JSON.parse(res.body) as { error: number; data: { url: string; name: string; size: number } }),
    };
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, {
      user: 'upowner1',
      pwd: 'abc12345',
      phone: '13600000061',
    }));
    ({ token: stranger } = await registerUser(t.app, {
      user: 'upstranger1',
      pwd: 'abc12345',
      phone: '13600000062',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'U' },
      })
    ).data._id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the upload action, stores a checked image at the spec path and serves it back', async () => {
    const policy = await call<{ uploadAction: string; maxSize: number }>(
      t.app,
      'GET',
      `/api/app/util/${project}/upload?type=image`,
      { token: owner },
    );
    expect(policy.error, policy.raw).toBe(0);
    expect(policy.data).toMatchObject({
      uploadAction: `/api/app/util/${project}/upload?type=image`,
      maxSize: 20480 * 1024,
    });
    const f = form('../../照片 1.png', png);
    const r = await post('?type=image', f.body, f.type, owner);
    expect(r.error, JSON.stringify(r)).toBe(0);
    expect(r.data.url).toMatch(
      new RegExp(`^/upload/project/${project}/main/image/\\d{8}/\\d+_[0-9a-f]{32}_照片_1\\.png$`),
    );
    expect(r.data.size).toBe(png.length);
    const got = await t.app.inject({ method: 'GET', url: encodeURI(r.data.url) });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(got.rawPayload, png)).toBe(0);
    // Raw bytes with ?name= work too; other files are served as downloads, never inline.
    const html = await post(
      '?type=file&name=page.html',
      Buffer.from('<script>alert(1)</script>'),
      'application/octet-stream',
      owner,
    );
    expect(html.error).toBe(0);
    const dl = await t.app.inject({ method: 'GET', url: encodeURI(html.data.url) });
    expect(dl.headers['content-type']).toBe('application/octet-stream');
    expect(dl.headers['content-disposition']).toBe('attachment');
  });

  it('refuses strangers, anonymous callers, wrong types, empty and oversize files; no path escapes', async () => {
    const f = form('a.png', png);
    expect((await post('?type=image', f.body, f.type)).error).toBe(1100);
    expect((await post('?type=image', f.body, f.type, stranger)).error).not.toBe(0);
    expect((await call(t.app, 'GET', `/api/app/util/${project}/upload`, { token: stranger })).error).not.toBe(
      0,
    );
    const text = form('a.png', Buffer.from('not an image'));
    expect((await post('?type=image', text.body, text.type, owner)).error).toBe(1469);
    const empty = form('a.png', Buffer.alloc(0));
    expect((await post('?type=file', empty.body, empty.type, owner)).error).toBe(1469);
    expect(
      (await post('?type=image', Buffer.from('x'), 'multipart/form-data; boundary=zz', owner)).error,
    ).toBe(1469);
    expect((await post('?type=bogus', f.body, f.type, owner)).error).toBe(1000);
    const big = await post(
      '?type=file&name=big.bin',
      Buffer.alloc(20480 * 1024 + 1, 1),
      'application/octet-stream',
      owner,
    );
    expect([big.status, big.error]).toEqual([413, 1470]);
    for (const url of [
      '/upload/project/../../../etc/passwd',
      `/upload/project/${project}/main/image/20240101/..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd`,
      `/upload/project/${project}/main/image/20240101/nothing.png`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
  });
});
