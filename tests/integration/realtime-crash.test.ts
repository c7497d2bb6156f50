import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../helpers/db.ts';
import {
  createRealtimeEnv,
  type RealtimeEnv,
  type Seed,
  seed,
  spawnServer,
  synced,
  until,
  yClient,
} from '../helpers/realtime.ts';

const dialects = await testDialects();

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
    const server = await spawnServer(env.config);
    proc = server.proc;
    const c = yClient(server.url, s.projectId, s.pageId, s.owner.token);
    await synced(c.provider, 10_000);
    const log = c.doc.getArray<{ i: number; t: number }>('log');
    let i = 0;
    const timer = setInterval(() => log.push([{ i: i++, t: Date.now() }]), 20);
    await new Promise((r) => setTimeout(r, 2500));
    // Killed while edits are still flowing.
    const killedAt = Date.now();
    server.proc.kill('SIGKILL');
    clearInterval(timer);
    c.provider.destroy();
    await new Promise((r) => server.proc.once('exit', r));
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
