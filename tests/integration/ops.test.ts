import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { backupSqlite } from '../../src/server/ops/backup.ts';
import { SOCKET_NAMESPACE, SOCKET_PATH } from '../../src/shared/realtime.ts';
import { seedProject, seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();
const root = path.resolve(import.meta.dirname, '../..');

describe.each(dialects)('health and metrics on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('/healthz and /readyz answer ok; /api/health still does', async () => {
    for (const url of ['/healthz', '/readyz', '/api/health']) {
      const r = await t.app.inject({ method: 'GET', url });
      expect([url, r.statusCode, JSON.parse(r.body).error]).toEqual([url, 200, 0]);
    }
    const ready = JSON.parse((await t.app.inject({ method: 'GET', url: '/readyz' })).body);
    expect(ready.data.checks).toEqual({ database: true });
  });

  it('/metrics: latency by route pattern, event loop lag, sockets, rooms, pool; loopback only', async () => {
    const user = await seedUser(t.app);
    const project = await seedProject(t.app, user.id);
    await t.app.inject({ method: 'GET', url: '/api/common/user/userInfo?token=SECRETSECRETSECRET1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    const sock = connect(`http://127.0.0.1:${port}${SOCKET_NAMESPACE}`, {
      path: SOCKET_PATH,
      auth: { token: user.token, project: project.id, platform: 'dev' },
      transports: ['websocket'],
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => {
      sock.once('connect', () => resolve());
      sock.once('connect_error', reject);
    });
    try {
      const r = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toContain('text/plain');
      const text = r.body;
      expect(text).toMatch(
        /http_request_duration_seconds_bucket\{le="[^"]+",method="GET",route="\/api\/common\/user\/userInfo",status_code="401"\} 1/,
      );
      expect(text).not.toContain('SECRETSECRETSECRET1');
      expect(text).toMatch(/nodejs_eventloop_lag_seconds \d/);
      expect(text).toMatch(/lowcode_socket_connections 1/);
      expect(text).toMatch(/lowcode_socket_rooms \d/);
      expect(text).toMatch(/lowcode_yjs_connections 0/);
      expect(text).toMatch(/lowcode_yjs_rooms 0/);
      expect(text).toMatch(/lowcode_db_pool_connections\{state="total"\} [1-9]/);
    } finally {
      sock.close();
    }
    // Not from loopback, or forwarded by a proxy: refused.
    const far = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.9.8.7' });
    expect([far.statusCode, JSON.parse(far.body).error]).toEqual([403, 1102]);
    const proxied = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect([proxied.statusCode, JSON.parse(proxied.body).error]).toEqual([403, 1102]);
  });
});

describe('metrics behind METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialects[0]!, { metricsToken: 'metrics-secret-0123456789' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers only the bearer of the token, from anywhere', async () => {
    const get = (headers: Record<string, string>, remoteAddress = '10.1.2.3') =>
      t.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });
    const bad: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: 'metrics-secret-0123456789' },
    ];
    for (const headers of bad) {
      const r = await get(headers, '127.0.0.1');
      expect([r.statusCode, JSON.parse(r.body).error]).toEqual([401, 1100]);
    }
    const ok = await get({ authorization: 'Bearer metrics-secret-0123456789' });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('http_request_duration_seconds');
  });
});

describe('readiness when the database does not answer', () => {
  it('/readyz answers 503 with 1007 naming it; /healthz stays up', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-ready-'));
    const app = await buildApp(loadConfig({}, { dataDir, clientDir: path.join(dataDir, 'none') }), {
      logger: false,
    });
    try {
      await app.ready();
      app.database.sqlite!.close();
      const r = await app.inject({ method: 'GET', url: '/readyz' });
      expect(r.statusCode).toBe(503);
      const body = JSON.parse(r.body);
      expect(body.error).toBe(1007);
      expect(body.msg).toContain('database');
      expect(body.data.checks).toEqual({ database: false });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close().catch(() => {});
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('online backup of the SQLite database and restore', () => {
  let t: TestApp;
  let dirs: string[] = [];
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    dirs = [];
  });

  it('copies a consistent database while writes go on; the copy serves the data again', async () => {
    const owner = await seedUser(t.app);
    const project = (await seedProject(t.app, owner.id)).id;
    const A = `/api/admin/project/${project}`;
    expect(
      (
        await call(t.app, 'POST', `${A}/entity/create`, {
          token: owner.token,
          body: { name: 'Note', code: 'note' },
        })
      ).error,
    ).toBe(0);
    expect(
      (
        await call(t.app, 'POST', `${A}/note/field/create`, {
          token: owner.token,
          body: { name: 'Text', type: 'string', field: 'text' },
        })
      ).error,
    ).toBe(0);
    const save = (i: number) =>
      call(t.app, 'POST', `/api/admin/data/${project}/note/save`, {
        token: owner.token,
        body: { text: `n${i}` },
      });
    for (let i = 0; i < 20; i++) expect((await save(i)).error).toBe(0);

    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-backup-'));
    dirs.push(out);
    const target = path.join(out, 'copy.db');
    const source = path.join(t.app.config.dataDir, 'app.db');
    // Writes keep coming while the copy is made.
    let writing = true;
    let written = 20;
    const writer = (async () => {
      while (writing) {
        expect((await save(written)).error).toBe(0);
        written++;
      }
    })();
    const result = await backupSqlite(source, target);
    writing = false;
    await writer;
    expect(result.bytes).toBeGreaterThan(0);
    expect(fs.existsSync(`${target}-wal`)).toBe(false);
    const copy = new SQLite(target, { readonly: true });
    const entity = copy.prepare("select id from data_entities where code = 'note'").get() as { id: string };
    const rows = (copy.prepare(`select count(*) as n from e_${entity.id}`).get() as { n: number }).n;
    copy.close();
    expect(rows).toBeGreaterThanOrEqual(20);
    expect(rows).toBeLessThanOrEqual(written);
    await expect(backupSqlite(source, target)).rejects.toThrow(/exists already/);

    // Restore: the copy as the data folder's database of a new server.
    const restored = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-restore-'));
    dirs.push(restored);
    fs.copyFileSync(target, path.join(restored, 'app.db'));
    const app2 = await buildApp(
      loadConfig({}, { dataDir: restored, clientDir: path.join(restored, 'none') }),
      {
        logger: false,
      },
    );
    try {
      const q = await call<{ data: unknown[] }>(app2, 'POST', `/api/admin/data/${project}/note/query`, {
        token: owner.token,
        body: { all: true },
      });
      expect(q.error).toBe(0);
      expect(q.data.data.length).toBe(rows);
    } finally {
      await app2.close();
    }
  });

  it('npm run backup -- <file> copies the database of DATA_DIR', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-backup-cli-'));
    dirs.push(out);
    const target = path.join(out, 'cli.db');
    const run = () =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', target], {
        cwd: root,
        env: { ...process.env, DATA_DIR: t.app.config.dataDir, DATABASE_URL: '' },
        encoding: 'utf8',
      });
    const first = run();
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('integrity ok');
    expect(fs.statSync(target).size).toBeGreaterThan(0);
    const again = run();
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('exists already');
  });
});
