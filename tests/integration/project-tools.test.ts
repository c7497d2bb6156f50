/** A project's utilities: spreadsheet formulas in their worker, and a zip of uploaded files. */

import net from 'node:net';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMeta } from '../../src/server/data/meta.ts';
import { ProjectCaches } from '../../src/server/ops/caches.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import { snapshot } from '../helpers/state.ts';

const dialects = await testDialects();

describe.each(dialects)('project utilities on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let stranger: string;
  let project: string;
  let foreign: string;

  const upload = async (p: string, token: string, name: string, data: Buffer) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/app/util/${p}/upload?type=file&name=${encodeURIComponent(name)}`,
      headers: { token, 'content-type': 'application/octet-stream' },
      payload: data,
    });
    return (JSON.parse(res.body) as { data: { url: string } }).data.url;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, {
      user: 'ptools1',
      pwd: 'abc12345',
      phone: '13600000081',
    }));
    ({ token: stranger } = await registerUser(t.app, {
      user: 'ptools2',
      pwd: 'abc12345',
      phone: '13600000082',
    }));
    const create = async (token: string, name: string) =>
      (await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', { token, body: { name } }))
        .data._id;
    project = await create(owner, 'Tools');
    foreign = await create(stranger, 'Theirs');
  });
  afterAll(async () => {
    await t?.close();
  });

  const parse = (body: unknown, token = owner, p = project) =>
    call<{ result: unknown }>(t.app, 'POST', `/api/app/util/${p}/sheet/parse`, { token, body });

  it('evaluates formulas over cells given by position or by reference', async () => {
    const grid = [
      [1, 2, 'x'],
      [3, 4, null],
    ];
    expect((await parse({ formula: '=SUM(A1:B2)*2', value: grid })).data.result).toBe(20);
    expect((await parse({ formula: 'IF(A2>2,"big","small")&"!"', value: grid })).data.result).toBe('big!');
    expect((await parse({ formula: 'C1&"-"&COUNT(A1:C2)', value: grid })).data.result).toBe('x-4');
    expect((await parse({ formula: 'A1*rate', value: { A1: 200, rate: 0.15 } })).data.result).toBe(30);
    expect((await parse({ formula: 'ROUND(1.23456,3)' })).data.result).toBe(1.235);
    expect((await parse({ formula: '10/3', option: { precision: 2 } })).data.result).toBe(3.33);
    // Spreadsheet errors are results, as in a cell.
    expect((await parse({ formula: '1/0' })).data.result).toBe('#DIV/0!');
  });

  it('answers coded errors for formulas that do not parse or need too much, and recovers', async () => {
    for (const formula of ['SUM(A1:', '1+*2', '"unclosed', ')']) {
      const r = await parse({ formula });
      expect(r.error, formula).toBe(1859);
      expect(r.status).toBe(400);
    }
    expect((await parse({ formula: 'SUM(A1:ZZ99999)' })).error).toBe(1860);
    // A result far over the worker's heap: the worker dies, the call is answered, the next one works.
    const huge = await parse({ formula: 'LEN(REPT(REPT("x",1000000),300))' });
    expect([1860, 0]).toContain(huge.error);
    expect((await parse({ formula: '2+2' })).data.result).toBe(4);
    expect((await parse({ formula: 'x'.repeat(5000) })).error).toBe(1000);
    expect((await parse({ formula: '1', value: [['a'.repeat(40_000)]] })).error).toBe(1000);
    expect((await parse({ formula: '1', option: { precision: 99 } })).error).toBe(1000);
  });

  it("is for the project's signed-in members only", async () => {
    expect((await parse({ formula: '1+1' }, stranger)).error).toBe(1201);
    const anon = await call(t.app, 'POST', `/api/app/util/${project}/sheet/parse`, {
      body: { formula: '1+1' },
    });
    expect(anon.error).toBe(1100);
    expect((await parse({ formula: '1+1' }, owner, 'e'.repeat(24))).error).toBe(1200);
  });

  const download = (files: unknown, token = owner, p = project) =>
    t.app.inject({
      method: 'POST',
      url: `/api/app/util/${p}/download`,
      headers: { token, 'content-type': 'application/json' },
      payload: JSON.stringify({ files }),
    });

  it("streams a zip of the project's files, with safe and unique names", async () => {
    const a = await upload(project, owner, 'report.txt', Buffer.from('first file'));
    const b = await upload(project, owner, 'report.txt', Buffer.from('second file'));
    const c = await upload(project, owner, 'photo.bin', Buffer.alloc(300_000, 7));
    const res = await download([a, b, { url: c, name: '../../etc/cron.d/evil.bin' }]);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(files).sort()).toEqual(['evil.bin', 'report (1).txt', 'report.txt']);
    expect(Buffer.from(files['report.txt']!).toString()).toBe('first file');
    expect(Buffer.from(files['report (1).txt']!).toString()).toBe('second file');
    expect(files['evil.bin']!.length).toBe(300_000);
  });

  it("refuses other projects' files, traversal, outside URLs and strangers, sending nothing", async () => {
    const theirs = await upload(foreign, stranger, 'secret.txt', Buffer.from('secret'));
    const mine = await upload(project, owner, 'mine.txt', Buffer.from('mine'));
    const before = await snapshot(t.app);
    const code = async (files: unknown, token = owner, p = project) => {
      const r = await download(files, token, p);
      expect(r.headers['content-type']).toContain('application/json');
      return JSON.parse(r.body).error as number;
    };
    expect(await code([mine, theirs])).toBe(1406);
    expect(await code([theirs.replace(foreign, project)])).toBe(1406);
    expect(await code([`/upload/project/${project}/main/file/../../../../../etc/passwd`])).toBe(1406);
    expect(await code([`/upload/project/${project}/main/file/%2e%2e/%2e%2e/x`])).toBe(1406);
    expect(await code(['https://example.com/a.png'])).toBe(1406);
    expect(await code([mine], stranger)).toBe(1201);
    expect(await code([])).toBe(1000);
    expect(await code(Array.from({ length: 201 }, () => mine))).toBe(1000);
    expect(await snapshot(t.app)).toBe(before);
  });

  it("clears the project's table metadata cache for its builders only", async () => {
    const P = `/api/admin/project/${project}`;
    const e = await call<{ _id: string }>(t.app, 'POST', `${P}/entity/create`, {
      token: owner,
      body: { name: 'Cached', code: 'cached' },
    });
    await call(t.app, 'POST', `${P}/cached/field/create`, {
      token: owner,
      body: { name: 'Label', type: 'string', field: 'label' },
    });
    const db = t.app.database.db;
    expect((await loadMeta(db, project, e.data._id)).fields.map((f) => f.name)).toContain('Label');
    // An operator renames the field in the database by hand: the cached meta does not know.
    await db
      .updateTable('data_fields')
      .set({ name: 'Renamed' })
      .where('entity_id', '=', e.data._id)
      .execute();
    expect((await loadMeta(db, project, e.data._id)).fields.map((f) => f.name)).toContain('Label');
    expect(
      (await call(t.app, 'POST', `/api/app/util/${project}/cache/clear`, { token: stranger, body: {} }))
        .error,
    ).toBe(1201);
    expect((await call(t.app, 'POST', `/api/app/util/${project}/cache/clear`, { body: {} })).error).not.toBe(
      0,
    );
    const r = await call<{ cleared: Record<string, number> }>(
      t.app,
      'POST',
      `/api/app/util/${project}/cache/clear`,
      {
        token: owner,
        body: {},
      },
    );
    expect(r.error, r.raw).toBe(0);
    expect(r.data.cleared.tableMeta).toBeGreaterThanOrEqual(1);
    expect((await loadMeta(db, project, e.data._id)).fields.map((f) => f.name)).toContain('Renamed');
  });
});

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisUp = await new Promise<boolean>((resolve) => {
  const u = new URL(redisUrl);
  const s = net.connect(Number(u.port || 6379), u.hostname);
  s.once('connect', () => {
    s.destroy();
    resolve(true);
  });
  s.once('error', () => resolve(false));
});

describe.skipIf(!redisUp && !process.env.TEST_REDIS_URL)('cache clears across processes', () => {
  it('a clear on one process clears the same project on the others through Redis', async () => {
    const a = new ProjectCaches();
    const b = new ProjectCaches();
    const seen: string[] = [];
    a.register('x', () => 0);
    b.register('x', (p) => {
      seen.push(p);
      return 1;
    });
    await a.connect(redisUrl);
    await b.connect(redisUrl);
    try {
      const project = 'ab'.repeat(12);
      await a.clear(project);
      for (let i = 0; i < 100 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(seen).toContain(project);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
