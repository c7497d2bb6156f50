/**
 * Uploads to an S3-compatible store (S3_* set), against a local S3-compatible server (s3rver) the test
 * starts itself: the browser's direct POST with the signed policy, server-side writes, the rich-text
 * helper's upload and listing, zip downloads of objects, and refusals, on both databases.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grayPng } from '../../src/server/data/xlsx/images.ts';
import { S3Store, s3Config, signString } from '../../src/server/util/object-store.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

function form(name: string, data: Buffer, field = 'file', type = 'image/png') {
  const boundary = '----lcS3Boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

/** What S3 checks of a POST: the signature over the policy, and each condition against the form. */
function policyAllows(fields: Record<string, string>, size: number, secret: string): string | null {
  const policy = JSON.parse(Buffer.from(fields.policy!, 'base64').toString()) as {
    expiration: string;
    conditions: unknown[];
  };
  const [, date, region, service] = fields['x-amz-credential']!.split('/');
  if (signString(secret, date!, region!, service!, fields.policy!) !== fields['x-amz-signature'])
    return 'signature';
  if (Date.parse(policy.expiration) < Date.now()) return 'expired';
  for (const c of policy.conditions) {
    if (Array.isArray(c) && c[0] === 'starts-with') {
      const v = fields[String(c[1]).slice(1)] ?? '';
      if (!v.startsWith(String(c[2]))) return `starts-with ${c[1]}`;
    } else if (Array.isArray(c) && c[0] === 'content-length-range') {
      if (size < Number(c[1]) || size > Number(c[2])) return 'size';
    } else if (!Array.isArray(c)) {
      for (const [k, v] of Object.entries(c as Record<string, string>))
        if (k !== 'bucket' && fields[k] !== v) return k;
    }
  }
  return null;
}

let server: S3rver;
let endpoint: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-s3rver-'));
beforeAll(async () => {
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'lc-files' }],
  });
  const addr = await server.run();
  endpoint = `http://127.0.0.1:${addr.port}`;
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(dialects)('S3-compatible upload store on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let project: string;
  let otherProject: string;
  const png = grayPng(6, 6, () => 90);
  const png2 = grayPng(7, 5, () => 200);
  const s3 = () =>
    s3Config({
      S3_ENDPOINT: endpoint,
      S3_BUCKET: 'lc-files',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    })!;

  beforeAll(async () => {
    t = await createTestApp(dialect, { s3: s3() });
    ({ token: owner } = await registerUser(t.app, {
      user: 's3owner1',
      pwd: 'abc12345',
      phone: '13600000391',
    }));
    const mk = async (name: string) =>
      (
        await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
          token: owner,
          body: { name },
        })
      ).data._id;
    project = await mk('S3');
    otherProject = await mk('S3 other');
  });
  afterAll(async () => {
    await t?.close();
  });

  const inject = async (method: 'GET' | 'POST', url: string, f?: { body: Buffer; type: string }) => {
    const res = await t.app.inject({
      method,
      url,
      headers: { token: owner, ...(f ? { 'content-type': f.type } : {}) },
      ...(f ? { payload: f.body } : {}),
    });
    return JSON.parse(res.body) as { error: number; msg: string; data: Record<string, unknown> };
  };

  it('answers a signed policy; the browser form it describes lands in the bucket', async () => {
    const a = await inject('GET', `/api/app/util/${project}/upload?type=image`);
    expect(a.error, a.msg).toBe(0);
    expect(a.data).toMatchObject({
      oss: true,
      accessKeyId: 'S3RVER',
      ossUrl: `${endpoint}/lc-files`,
      maxSize: 20480 * 1024,
    });
    const fields = {
      ...(a.data.fields as Record<string, string>),
      key: `${a.data.dir}photo.png`,
      'Content-Type': 'image/png',
    };
    expect(policyAllows(fields, png.length, 'S3RVER')).toBeNull();
    // What the policy refuses: another folder, a non-image type, a file over the limit, a forged policy.
    expect(
      policyAllows({ ...fields, key: `project/${otherProject}/main/image/x.png` }, png.length, 'S3RVER'),
    ).toBe('starts-with $key');
    expect(policyAllows({ ...fields, 'Content-Type': 'text/html' }, png.length, 'S3RVER')).toBe(
      'starts-with $Content-Type',
    );
    expect(policyAllows(fields, 20480 * 1024 + 1, 'S3RVER')).toBe('size');
    expect(policyAllows(fields, png.length, 'not-the-secret')).toBe('signature');

    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    body.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png');
    const posted = await fetch(String(a.data.ossUrl), { method: 'POST', body });
    expect(posted.status).toBe(204);
    const back = await fetch(`${a.data.host}/${fields.key}`);
    expect(back.status).toBe(200);
    expect(Buffer.from(await back.arrayBuffer()).equals(png)).toBe(true);
  });

  it('stores server-side uploads and the rich-text helper images in the bucket, not the folder', async () => {
    const up = await inject(
      'POST',
      `/api/app/util/${project}/upload?type=file`,
      form('notes.txt', Buffer.from('hello s3'), 'file', 'text/plain'),
    );
    expect(up.error, up.msg).toBe(0);
    expect(String(up.data.url).startsWith(`${endpoint}/lc-files/project/${project}/main/file/`)).toBe(true);
    expect(await (await fetch(String(up.data.url))).text()).toBe('hello s3');

    const ue = await inject(
      'POST',
      `/api/app/util/${project}/ueditor?action=uploadimage`,
      form('pic.png', png2, 'upfile'),
    );
    expect(ue.error, ue.msg).toBe(0);
    expect(ue.data).toMatchObject({ state: 'SUCCESS', type: '.png', size: png2.length, original: 'pic.png' });
    expect(String(ue.data.url).startsWith(`${endpoint}/lc-files/project/${project}/main/image/`)).toBe(true);
    const got = Buffer.from(await (await fetch(String(ue.data.url))).arrayBuffer());
    expect(got.equals(png2)).toBe(true);
    expect(fs.existsSync(path.join(t.app.config.dataDir, 'upload'))).toBe(false);

    const list = await inject('GET', `/api/app/util/${project}/ueditor?action=listimage&start=0&size=20`);
    expect(list.error, list.msg).toBe(0);
    const urls = (list.data.list as { url: string }[]).map((x) => x.url);
    expect(list.data.total).toBe(2); // the browser's image and this one; the text file is not an image
    expect(urls).toContain(ue.data.url);
    const none = await inject('GET', `/api/app/util/${otherProject}/ueditor?action=listimage`);
    expect(none.data).toMatchObject({ list: [], total: 0 });

    // A zip of two objects, read from the bucket.
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/app/util/${project}/download`,
      headers: { token: owner },
      payload: { files: [up.data.url, { url: ue.data.url, name: 'picture.png' }] },
    });
    expect(res.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(files).sort()).toEqual(['notes.txt', 'picture.png']);
    expect(Buffer.from(files['picture.png']!).equals(png2)).toBe(true);

    // Another project's object, a traversal spelling, a missing object: 1406 before any byte.
    for (const url of [
      String(ue.data.url).replace(project, otherProject),
      `${endpoint}/lc-files/project/${project}/main/image/%2e%2e/x.png`,
      `${endpoint}/lc-files/project/${project}/main/image/20260101/1_${'0'.repeat(32)}_gone.png`,
    ]) {
      const r = await t.app.inject({
        method: 'POST',
        url: `/api/app/util/${project}/download`,
        headers: { token: owner },
        payload: { files: [url] },
      });
      expect(JSON.parse(r.body).error, url).toBe(1406);
    }
  });

  it('an unreachable store is a coded error, nothing stored', async () => {
    const dead = new S3Store({ ...s3(), endpoint: 'http://127.0.0.1:9' });
    await expect(
      dead.put('project/x/main/file/1/a.txt', Buffer.from('x'), 'text/plain'),
    ).rejects.toMatchObject({
      def: { code: 2128 },
    });
  });
});
