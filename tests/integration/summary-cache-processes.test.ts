/**
 * The summary cache across server processes (issue 19): two app instances on one PostgreSQL schema,
 * linked by Redis, each with its own module state (its own summary cache, write clocks and Redis
 * connections — what two processes have), plus a third instance without Redis as the control.
 * A summary cached on B is answered correctly by B on the very next call after any kind of write
 * made on A; the control, which hears nothing, still answers its stale copy (so the instances
 * really share no memory and it is Redis that keeps B right).
 *
 * Needs TEST_DATABASE_URL and TEST_REDIS_URL (as CI sets them); skipped without them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { normalizeSummaryOrThrow, type SummaryAnswer, summarize } from '../../src/shared/query/index.ts';
import { call, registerUser } from '../helpers/app.ts';
import { removeTestStorage } from '../helpers/db.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

interface Instance {
  app: FastifyInstance;
  stats: () => { hits: number; misses: number; entries: number };
  loadMeta: typeof import('../../src/server/data/meta.ts').loadMeta;
}

describe.skipIf(!pgUrl || !redisUrl)('summary cache on two server instances (PostgreSQL + Redis)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-sum-proc-'));
  const schema = `sumproc_${process.pid}_${Date.now().toString(36)}`;
  const instances: Instance[] = [];
  let a: Instance;
  let b: Instance;
  let control: Instance;
  let owner: string;
  let project: string;
  const admin = (p: string) => `/api/admin/data/${project}/${p}`;
  const simple = (p: string) => `/api/app/simple/${project}/${p}`;
  const SUMMARY = {
    query: { $and: [{ field: 'amount', type: 'number', opt: 'gt', value: 0 }] },
    summary: {
      group: ['region'],
      metrics: [{ fn: 'count' }, { fn: 'sum', field: 'amount' }, { fn: 'avg', field: 'amount' }],
    },
  };

  /** A server instance with module state of its own, as a separate process has. */
  async function instance(redis: string | undefined): Promise<Instance> {
    vi.resetModules();
    const { buildApp } = await import('../../src/server/app.ts');
    const { loadConfig } = await import('../../src/server/config.ts');
    const cache = await import('../../src/server/data/summary-cache.ts');
    const meta = await import('../../src/server/data/meta.ts');
    const config = loadConfig(
      {},
      {
        dataDir,
        databaseUrl: pgUrl,
        databaseSchema: schema,
        clientDir: path.join(dataDir, 'no-client'),
        testOutbox: true,
        rateLimits: { login: 1000, verifyCode: 1000, captcha: 1000, short: 1000, res: 1000, lbs: 1000 },
        loginLimits: { perAddress: 1000, perAccount: 1000, slowdownMs: 1000 },
      },
    );
    const app = await buildApp({ ...config, redisUrl: redis }, { logger: false });
    await app.ready();
    const made = { app, stats: cache.summaryCacheStats, loadMeta: meta.loadMeta };
    instances.push(made);
    return made;
  }

  beforeAll(async () => {
    a = await instance(redisUrl);
    ({ token: owner } = await registerUser(a.app, {
      user: 'sumproc1',
      pwd: 'abc12345',
      phone: '13600000291',
    }));
    project = (
      await call<{ _id: string }>(a.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'SP' },
      })
    ).data._id;
    const P = `/api/admin/project/${project}`;
    await call(a.app, 'POST', `${P}/entity/create`, { token: owner, body: { name: 'Sale', code: 'sale' } });
    for (const [name, type, field] of [
      ['Title', 'string', 'title'],
      ['Region', 'string', 'region'],
      ['Amount', 'number', 'amount'],
    ] as const) {
      const r = await call(a.app, 'POST', `${P}/sale/field/create`, {
        token: owner,
        body: { name, type, field },
      });
      expect(r.error, r.raw).toBe(0);
    }
    const rows = Array.from({ length: 40 }, (_, i) => ({
      title: `t${i}`,
      region: ['north', 'south', '', 'east'][i % 4],
      amount: i + 0.25,
    }));
    const saved = await call(a.app, 'POST', admin('sale/save'), { token: owner, body: rows });
    expect(saved.error, saved.raw).toBe(0);
    b = await instance(redisUrl);
    control = await instance(undefined);
  }, 120_000);

  afterAll(async () => {
    for (const i of instances) await i.app.close().catch(() => undefined);
    await removeTestStorage(dataDir, pgUrl, schema);
  });

  /** What the reference evaluator answers for SUMMARY over the table's rows now. */
  async function expected(): Promise<SummaryAnswer> {
    const meta = await a.loadMeta(a.app.database.db, project, 'sale');
    const all = await call<{ data: Record<string, unknown>[] }>(a.app, 'POST', admin('sale/query'), {
      token: owner,
      body: { query: SUMMARY.query, page: { index: 1, size: 5000 } },
    });
    expect(all.error, all.raw).toBe(0);
    return summarize(
      all.data.data,
      normalizeSummaryOrThrow(SUMMARY.summary, meta.queryTypes),
      meta.queryTypes,
    );
  }

  async function summary(on: Instance): Promise<SummaryAnswer> {
    const r = await call<SummaryAnswer>(on.app, 'POST', simple('sale/summary'), {
      token: owner,
      body: SUMMARY,
    });
    expect(r.error, r.raw).toBe(0);
    return r.data;
  }

  it('the instances keep separate caches: each answers a repeated summary from its own', async () => {
    const want = await expected();
    for (const i of [b, control]) {
      expect(await summary(i)).toEqual(want);
      const h = i.stats().hits;
      expect(await summary(i)).toEqual(want);
      expect(i.stats().hits).toBe(h + 1);
    }
    // A's cache was not touched by B's and the control's calls.
    expect(a.stats().entries).toBe(0);
  });

  it('every kind of write on A is seen by B on its next call; the control without Redis stays stale', async () => {
    const ids = (
      await call<{ data: Array<{ _id: string }> }>(a.app, 'POST', admin('sale/query'), {
        token: owner,
        body: { page: { index: 1, size: 3 } },
      })
    ).data.data.map((x) => x._id);
    const file = async () => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('S');
      ws.addRow(['Title', 'Region', 'Amount']);
      ws.addRow(['imported', 'north', 1000]);
      ws.addRow(['imported 2', 'zone', 3]);
      return Buffer.from(await wb.xlsx.writeBuffer());
    };
    const ok = (r: { error: number; raw: string }, name: string) =>
      expect(r.error, `${name}: ${r.raw}`).toBe(0);
    const writes: Array<[string, () => Promise<void>]> = [
      [
        'create',
        async () =>
          ok(
            await call(a.app, 'POST', simple('sale/save'), {
              token: owner,
              body: { region: 'north', amount: 11 },
            }),
            'create',
          ),
      ],
      [
        'update',
        async () =>
          ok(
            await call(a.app, 'POST', simple(`sale/${ids[0]}/update`), {
              token: owner,
              body: { amount: 99 },
            }),
            'update',
          ),
      ],
      [
        'remove',
        async () =>
          ok(await call(a.app, 'POST', admin(`sale/${ids[1]}/remove`), { token: owner, body: {} }), 'remove'),
      ],
      [
        'import',
        async () => {
          const res = await a.app.inject({
            method: 'POST',
            url: `/api/app/d/${project}/sale/import`,
            headers: { token: owner, 'content-type': 'application/octet-stream' },
            payload: await file(),
          });
          expect(JSON.parse(res.body).error, res.body).toBe(0);
        },
      ],
      [
        'bulk save',
        async () =>
          ok(
            await call(a.app, 'POST', admin('sale/save'), {
              token: owner,
              body: [{ region: 'south', amount: 5 }],
            }),
            'bulk save',
          ),
      ],
      [
        'bulk update',
        async () =>
          ok(
            await call(a.app, 'POST', admin('sale/update'), {
              token: owner,
              body: [{ _id: ids[2], region: 'east' }],
            }),
            'bulk update',
          ),
      ],
      [
        'bulk remove',
        async () =>
          ok(
            await call(a.app, 'POST', simple('sale/remove'), { token: owner, body: [ids[0]] }),
            'bulk remove',
          ),
      ],
    ];
    const stale = await summary(control);
    let last = await summary(b);
    expect(last).toEqual(stale);
    for (const [name, write] of writes) {
      const h = b.stats().hits;
      expect(await summary(b), name).toEqual(last); // cached on B now
      expect(b.stats().hits, name).toBe(h + 1);
      await write();
      // The very next call on B: no wait for the pub/sub message.
      const now = await summary(b);
      expect(now, name).toEqual(await expected());
      expect(now, name).not.toEqual(last);
      last = now;
    }
    // The control heard none of it: its cached answer is the one from before the writes.
    expect(await summary(control)).toEqual(stale);
    expect(stale).not.toEqual(await expected());
  });

  it('a write on B is seen by A too (both directions), and a refused write keeps the cache', async () => {
    const before = await summary(a);
    expect(before).toEqual(await expected());
    const w = await call(b.app, 'POST', simple('sale/save'), {
      token: owner,
      body: { region: 'west', amount: 7 },
    });
    expect(w.error, w.raw).toBe(0);
    const after = await summary(a);
    expect(after).toEqual(await expected());
    expect(after).not.toEqual(before);
    const h = a.stats().hits;
    const bad = await call(b.app, 'POST', admin('sale/save'), { token: owner, body: [{ amount: 'x' }] });
    expect(bad.error).toBe(2000);
    expect(await summary(a)).toEqual(after);
    expect(a.stats().hits).toBe(h + 1);
  });
});
