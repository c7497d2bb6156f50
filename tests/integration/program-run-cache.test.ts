/**
 * What program runs keep before their transaction (program/run-cache.ts: the tables' metas and the
 * project's trigger list) is read again on the very next run after a change made elsewhere:
 * - SQLite: two app instances on one database file, each with module state of its own (what two
 *   processes have). A field added, a program released and a trigger released on B are seen by A's
 *   next run (the connection's data_version moved); A's own changes move its schema clock.
 * - PostgreSQL + Redis: two instances linked by Redis and a control without Redis on the same schema:
 *   B's change is seen by A's next run (the shared schema version), while the control, which hears
 *   nothing and has no data_version to look at, still runs on what it kept (so it is Redis that keeps
 *   A right). Needs TEST_DATABASE_URL and TEST_REDIS_URL; skipped without them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { removeTestStorage } from '../helpers/db.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

interface Instance {
  app: FastifyInstance;
  schema: typeof import('../../src/server/data/schema-service.ts');
  programs: typeof import('../../src/server/program/service.ts');
  engine: typeof import('../../src/server/program/engine.ts');
  cache: typeof import('../../src/server/program/run-cache.ts');
  account: typeof import('../../src/server/account/service.ts');
  project: typeof import('../../src/server/project/service.ts');
}

/** An app instance with module state of its own, as a separate process has. */
async function instance(
  dataDir: string,
  o: { databaseUrl?: string; databaseSchema?: string; redis?: string },
): Promise<Instance> {
  vi.resetModules();
  const { buildApp } = await import('../../src/server/app.ts');
  const { loadConfig } = await import('../../src/server/config.ts');
  const config = loadConfig(
    {},
    {
      dataDir,
      databaseUrl: o.databaseUrl,
      databaseSchema: o.databaseSchema,
      clientDir: path.join(dataDir, 'no-client'),
      testOutbox: true,
    },
  );
  const app = await buildApp({ ...config, redisUrl: o.redis }, { logger: false });
  await app.ready();
  return {
    app,
    schema: await import('../../src/server/data/schema-service.ts'),
    programs: await import('../../src/server/program/service.ts'),
    engine: await import('../../src/server/program/engine.ts'),
    cache: await import('../../src/server/program/run-cache.ts'),
    account: await import('../../src/server/account/service.ts'),
    project: await import('../../src/server/project/service.ts'),
  };
}

const WRITE_NAME = [
  { _type: 'create', _handle: 'c', _entity: 'items', _procedure: { values: { name: "'n'" } } },
];
const WRITE_EXTRA = [
  { _type: 'create', _handle: 'c', _entity: 'items', _procedure: { values: { name: "'n'", extra: "'e'" } } },
];

/** The scenario both databases run: A keeps, B changes, A's next run sees the change. */
async function scenario(a: Instance, b: Instance, control?: Instance) {
  const db = a.app.database.db;
  const owner = await a.account.createUser(db, {
    account: 'runcache1',
    phone: null,
    nickname: 'O',
    pwd: 'abc12345',
  });
  const project = await a.project.createProject(db, owner.id, 'Run cache', { tier: 3 });
  const items = await a.schema.createEntity(db, project.id, { name: 'Items', code: 'items' });
  await a.schema.createField(db, a.app.database.dialect, items, {
    name: 'name',
    field: 'name',
    type: 'string',
  });
  let flow = await a.programs.createFlow(db, project.id, { name: 'Writer', _process: WRITE_NAME });
  flow = await a.programs.releaseFlow(db, flow, owner.id);

  const run = async (i: Instance) => {
    const row = await i.programs.findFlow(i.app.database.db, project.id, flow.id);
    return i.engine.runProgram(i.app.database, {
      projectId: project.id,
      flow: { id: row.id, name: row.name, doc: i.programs.releasedDoc(row)! },
      input: {},
      user: null,
      test: false,
      http: i.app.config.programHttp,
    });
  };
  const count = async (i: Instance, table: string) => {
    const meta = await i.schema.findEntity(i.app.database.db, project.id, table);
    return i.schema.countRows(i.app.database.db, meta.id);
  };

  // A runs twice: the second run reads nothing before its transaction.
  expect((await run(a)).error).toBeUndefined();
  const s0 = a.cache.runCacheStats();
  expect((await run(a)).error).toBeUndefined();
  const s1 = a.cache.runCacheStats();
  expect(s1.hits - s0.hits).toBe(1);
  expect(s1.misses - s0.misses).toBe(0);
  if (control) expect((await run(control)).error).toBeUndefined();

  // B adds a field and releases the program writing it: A's next run knows the field.
  const itemsB = await b.schema.findEntity(b.app.database.db, project.id, 'items');
  await b.schema.createField(b.app.database.db, b.app.database.dialect, itemsB, {
    name: 'extra',
    field: 'extra',
    type: 'string',
  });
  const flowB = await b.programs.findFlow(b.app.database.db, project.id, flow.id);
  await b.programs.updateFlow(b.app.database.db, flowB, { _process: WRITE_EXTRA });
  await b.programs.releaseFlow(
    b.app.database.db,
    await b.programs.findFlow(b.app.database.db, project.id, flow.id),
    owner.id,
  );
  const out = await run(a);
  expect(out.error).toBeUndefined();
  if (control) {
    // No Redis, no data_version: the control still has the table without the field.
    const stale = await run(control);
    expect(stale.error?.def.code).toBe(1803);
    expect(stale.error?.message).toContain('extra');
  }

  // B makes a trigger program on items' creates and releases it: A's next run fires it.
  const logs = await b.schema.createEntity(b.app.database.db, project.id, { name: 'Logs', code: 'logs' });
  await b.schema.createField(b.app.database.db, b.app.database.dialect, logs, {
    name: 'msg',
    field: 'msg',
    type: 'string',
  });
  let trigger = await b.programs.createFlow(b.app.database.db, project.id, {
    name: 'On create',
    _process: [{ _type: 'create', _handle: 'l', _entity: 'logs', _procedure: { values: { msg: "'made'" } } }],
    _option: { _entity: 'items', trigger: { on: ['create'] } },
  });
  trigger = await b.programs.releaseFlow(b.app.database.db, trigger, owner.id);
  expect(await count(a, 'logs')).toBe(0);
  expect((await run(a)).error).toBeUndefined();
  expect(await count(a, 'logs')).toBe(1);

  // A's own change moves its schema clock: the field removed is refused by the next run.
  const extra = (await a.schema.listFields(db, project.id, items.id)).find((f) => f.code === 'extra')!;
  await a.schema.removeField(db, extra);
  const refused = await run(a);
  expect(refused.error?.def.code).toBe(1803);
  expect(refused.error?.message).toContain('extra');
}

describe('program run cache across instances (SQLite file)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-runcache-'));
  const instances: Instance[] = [];
  afterAll(async () => {
    for (const i of instances) await i.app.close();
    await removeTestStorage(dataDir, undefined, undefined);
  });

  it('a field, a release and a trigger made on another connection are seen by the next run', async () => {
    const a = await instance(dataDir, {});
    const b = await instance(dataDir, {});
    instances.push(a, b);
    await scenario(a, b);
  }, 240_000);
});

describe.skipIf(!pgUrl || !redisUrl)('program run cache across processes (PostgreSQL + Redis)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-runcache-pg-'));
  const schema = `runcache_${process.pid}_${Date.now().toString(36)}`;
  const instances: Instance[] = [];
  afterAll(async () => {
    for (const i of instances) await i.app.close();
    await removeTestStorage(dataDir, pgUrl, schema);
  });

  it("another process's changes are seen by the next run through Redis; a control without Redis keeps its copy", async () => {
    const a = await instance(dataDir, { databaseUrl: pgUrl, databaseSchema: schema, redis: redisUrl });
    const b = await instance(dataDir, { databaseUrl: pgUrl, databaseSchema: schema, redis: redisUrl });
    const control = await instance(dataDir, { databaseUrl: pgUrl, databaseSchema: schema });
    instances.push(a, b, control);
    await scenario(a, b, control);
  }, 240_000);
});
