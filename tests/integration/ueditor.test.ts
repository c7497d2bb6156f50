/**
 * The rich-text helper's server protocol (`…/ueditor`) with the local folder store: config, image
 * upload with hostile names, listing newest first and per project, on both databases.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grayPng } from '../../src/server/data/xlsx/images.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

function upfile(name: string, data: Buffer) {
  const b = '----lcUeditor';
  return {
    body: Buffer.concat([
      Buffer.from(
        `--${b}\r\nContent-Disposition: form-data; name="upfile"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${b}--\r\n`),
    ]),
    type: `multipart/form-data; boundary=${b}`,
  };
}

describe.each(dialects)('rich-text helper on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let project: string;
  let other: string;

  const ue = async (
    p: string,
    action: string,
    f?: { body: Buffer; type: string },
    method = f ? 'POST' : 'GET',
  ) => {
    const res = await t.app.inject({
      method: method as 'GET' | 'POST',
      url: `/api/app/util/${p}/ueditor?action=${action}`,
      headers: { token: owner, ...(f ? { 'content-type': f.type } : {}) },
      ...(f ? { payload: f.body } : {}),
    });
    return JSON.parse(res.body) as { error: number; msg: string; data: Record<string, unknown> };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, {
      user: 'ueowner1',
      pwd: 'abc12345',
      phone: '13600000392',
    }));
    const mk = async (name: string) =>
      (
        await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
          token: owner,
          body: { name },
        })
      ).data._id;
    project = await mk('UE');
    other = await mk('UE other');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers its config', async () => {
    const c = await ue(project, 'config', undefined, 'POST');
    expect(c.error, c.msg).toBe(0);
    expect(c.data).toMatchObject({
      state: 'SUCCESS',
      imageActionName: 'uploadimage',
      imageFieldName: 'upfile',
      imageMaxSize: 20480 * 1024,
      imageManagerActionName: 'listimage',
    });
  });

  it('stores images under safe names inside the project folder and lists them newest first', async () => {
    const a = await ue(
      project,
      'uploadimage',
      upfile(
        '../../../../etc/cron.d/evil.png',
        grayPng(3, 3, () => 10),
      ),
    );
    expect(a.error, a.msg).toBe(0);
    expect(a.data).toMatchObject({
      state: 'SUCCESS',
      type: '.png',
      original: '../../../../etc/cron.d/evil.png',
    });
    expect(String(a.data.url)).toMatch(
      new RegExp(`^/upload/project/${project}/main/image/\\d{8}/\\d+_[0-9a-f]{32}_evil\\.png$`),
    );
    // The stored file is where the URL says, inside the data folder's upload tree, and serves back.
    const abs = path.join(t.app.config.dataDir, String(a.data.url));
    expect(fs.existsSync(abs)).toBe(true);
    const served = await t.app.inject({ method: 'GET', url: String(a.data.url) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');

    await new Promise((r) => setTimeout(r, 20));
    const b = await ue(
      project,
      'uploadimage',
      upfile(
        'second.png',
        grayPng(4, 4, () => 200),
      ),
    );
    expect(b.error, b.msg).toBe(0);
    const list = await ue(project, 'listimage&start=0&size=1');
    expect(list.data).toMatchObject({ state: 'SUCCESS', start: 0, total: 2 });
    expect((list.data.list as { url: string }[]).map((x) => x.url)).toEqual([b.data.url]);
    const rest = await ue(project, 'listimage&start=1&size=5');
    expect((rest.data.list as { url: string }[]).map((x) => x.url)).toEqual([a.data.url]);
    // Another project sees none of them.
    expect((await ue(other, 'listimage')).data).toMatchObject({ list: [], total: 0 });
  });
});
