import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { postgresUrl, testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('graceful shutdown on %s', (dialect) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const f of cleanups.splice(0).reverse()) await f();
  });

  it('finishes the in-flight request, refuses new work, then closes the database', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-shutdown-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const databaseUrl = dialect === 'postgres' ? await postgresUrl() : undefined;
    const databaseSchema =
      dialect === 'postgres' ? `t_shutdown_${process.pid}_${Date.now().toString(36)}` : undefined;
    if (databaseUrl) {
      cleanups.push(async () => {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${databaseSchema}" CASCADE`);
        await client.end();
      });
    }
    const config = loadConfig(
      {},
      {
        dataDir,
        databaseUrl,
        databaseSchema,
        clientDir: path.join(dataDir, 'none'),
        host: '127.0.0.1',
        port: 0,
      },
    );
    const app = await buildApp(config, { logger: false });

    // A test-only slow route that needs the database after its pause: it proves the database
    // stays open until in-flight requests are done.
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    app.get('/api/test/slow', { schema: { hide: true } }, async () => {
      entered();
      await released;
      const row = await app.database.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return { error: 0, data: { users: Number(row.n) } };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const base = `http://127.0.0.1:${port}`;

    const slow = fetch(`${base}/api/test/slow`).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));
    await inside;

    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    // Let close() start: the listener stops, idle sockets go.
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);

    // New work is not accepted while draining: refused at the socket, or answered 503.
    const late = await fetch(`${base}/api/health`).then(
      (r) => r.status,
      () => 'refused' as const,
    );
    expect([503, 'refused']).toContain(late);

    release();
    const answer = await slow;
    expect(answer).toEqual({ status: 200, body: { error: 0, data: { users: 0 } } });

    await closing;
    expect(closed).toBe(true);
    if (dialect === 'sqlite') expect(app.database.sqlite!.open).toBe(false);
    await expect(app.database.db.selectFrom('users').select('id').execute()).rejects.toThrow();
  });
});
