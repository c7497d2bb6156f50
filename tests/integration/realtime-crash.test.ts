import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../helpers/db.ts';
import {
  createRealtimeEnv,
  type RealtimeEnv,
  type Seed,
  seed,
  synced,
  until,
  yClient,
} from '../helpers/realtime.ts';

const dialects = await testDialects();
const ROOT = path.resolve(import.meta.dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function healthy(port: number, ms: number): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > end) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.each(dialects)('kill -9 during editing on %s', (dialect) => {
  let env: RealtimeEnv;
  let s: Seed;
  let proc: ChildProcess | undefined;

  beforeAll(async () => {
    env = await createRealtimeEnv(dialect);
    const seeding = await env.start();
    s = await seed(seeding.app);
    await seeding.app.close();
  });
  afterAll(async () => {
    proc?.kill('SIGKILL');
    await env?.cleanup();
  });

  it('loses at most the last second of edits', async () => {
    const port = await freePort();
    const { config } = env;
    proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: ROOT,
      stdio: 'ignore',
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: config.dataDir,
        DATABASE_URL: config.databaseUrl ?? '',
        DATABASE_SCHEMA: config.databaseSchema ?? '',
        CLIENT_DIR: config.clientDir,
        REDIS_URL: '',
        LOG_LEVEL: 'error',
      },
    });
    await healthy(port, 45_000);
    const c = yClient(`ws://127.0.0.1:${port}`, s.projectId, s.pageId, s.owner.token);
    await synced(c.provider, 10_000);
    const log = c.doc.getArray<{ i: number; t: number }>('log');
    let i = 0;
    const timer = setInterval(() => log.push([{ i: i++, t: Date.now() }]), 20);
    await new Promise((r) => setTimeout(r, 2500));
    // Killed while edits are still flowing.
    const killedAt = Date.now();
    proc.kill('SIGKILL');
    clearInterval(timer);
    c.provider.destroy();
    await new Promise((r) => proc!.once('exit', r));
    proc = undefined;

    const r = await env.start();
    const back = yClient(r.url, s.projectId, s.pageId, s.owner.token);
    await synced(back.provider);
    await until(() => back.doc.getArray('log').length > 0, 5000, 'reload');
    const kept = new Set(back.doc.getArray<{ i: number }>('log').map((e) => e.i));
    const older = log.toArray().filter((e) => e.t < killedAt - 1000);
    expect(older.length).toBeGreaterThan(40);
    const lost = older.filter((e) => !kept.has(e.i));
    expect(lost).toEqual([]);
    back.provider.destroy();
  }, 90_000);
});
