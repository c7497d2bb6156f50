/**
 * List writes (save, update, remove of up to 1000 rows in one transaction, per-row errors) and the
 * summary cache (answers again from memory, dropped by every kind of write, right on the next call).
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMeta } from '../../src/server/data/meta.ts';
import { queryRecords } from '../../src/server/data/records.ts';
import { summaryCacheStats } from '../../src/server/data/summary-cache.ts';
import { normalizeOrThrow, normalizeSummaryOrThrow, summarize } from '../../src/shared/query/index.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

describe.each(dialects)('list writes and the summary cache on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let project: string;
  const admin = (path: string) => `/api/admin/data/${project}/${path}`;
  const simple = (path: string) => `/api/app/simple/${project}/${path}`;
  const SUMMARY = {
    query: { $and: [{ field: 'amount', type: 'number', opt: 'gt', value: 0 }] },
    summary: {
      group: ['region'],
      metrics: [{ fn: 'count' }, { fn: 'sum', field: 'amount' }, { fn: 'avg', field: 'amount' }],
    },
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, {
      user: 'bulkcache1',
      pwd: 'abc12345',
      phone: '13600000191',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'B' },
      })
    ).data._id;
    const P = `/api/admin/project/${project}`;
    await call(t.app, 'POST', `${P}/entity/create`, { token: owner, body: { name: 'Sale', code: 'sale' } });
    for (const [name, type, field] of [
      ['Title', 'string', 'title'],
      ['Region', 'string', 'region'],
      ['Amount', 'number', 'amount'],
    ] as const) {
      const r = await call(t.app, 'POST', `${P}/sale/field/create`, {
        token: owner,
        body: { name, type, field },
      });
      expect(r.error, r.raw).toBe(0);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  /** What the reference evaluator answers for SUMMARY over the table's rows now. */
  async function expected() {
    const meta = await loadMeta(t.app.database.db, project, 'sale');
    const all = await queryRecords(
      t.app.database.db,
      t.app.database.dialect,
      meta,
      normalizeOrThrow(
        { ...SUMMARY, page: { index: 1, size: 100_000 } },
        { now: Date.now(), user: null, fields: meta.queryTypes },
      ),
    );
    return summarize(all.data, normalizeSummaryOrThrow(SUMMARY.summary, meta.queryTypes), meta.queryTypes);
  }

  async function summary() {
    const r = await call<unknown>(t.app, 'POST', simple('sale/summary'), { token: owner, body: SUMMARY });
    expect(r.error, r.raw).toBe(0);
    return r.data;
  }

  async function count() {
    const r = await call<{ data: unknown[] }>(t.app, 'POST', admin('sale/query'), {
      token: owner,
      body: { page: { index: 1, size: 2000 } },
    });
    return r.data.data.length;
  }

  it('saves a list in one call and answers the ids in order', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({
      title: `t${i}`,
      region: ['north', 'south', '', 'east'][i % 4],
      amount: i + 0.5,
    }));
    const r = await call<{ count: number; ids: string[] }>(t.app, 'POST', admin('sale/save'), {
      token: owner,
      body: rows,
    });
    expect(r.error, r.raw).toBe(0);
    expect(r.data.count).toBe(30);
    expect(new Set(r.data.ids).size).toBe(30);
    const first = await call<Record<string, unknown>>(t.app, 'GET', admin(`sale/${r.data.ids[3]}`), {
      token: owner,
    });
    expect(first.data.title).toBe('t3');
    expect(await count()).toBe(30);
  });

  it('a single save is unchanged: one record in, the record out', async () => {
    const r = await call<Record<string, unknown>>(t.app, 'POST', simple('sale/save'), {
      token: owner,
      body: { title: 'single', region: 'west', amount: 7 },
    });
    expect(r.error, r.raw).toBe(0);
    expect(r.data.title).toBe('single');
    expect(typeof r.data._id).toBe('string');
    const removed = await call(t.app, 'POST', simple(`sale/${r.data._id}/remove`), {
      token: owner,
      body: {},
    });
    expect(removed.error).toBe(0);
  });

  it('refuses the whole list with per-row errors, writing nothing', async () => {
    const before = await count();
    const r = await call<{ failed: number; errors: Array<{ row: number; code: number; reason: string }> }>(
      t.app,
      'POST',
      admin('sale/save'),
      {
        token: owner,
        body: [{ title: 'ok' }, { amount: 'lots' }, { nosuch: 1 }, 'not an object', { title: 'ok too' }],
      },
    );
    expect(r.error).toBe(2000);
    expect(r.status).toBe(400);
    expect(r.data.failed).toBe(3);
    expect(r.data.errors.map((e) => e.row)).toEqual([2, 3, 4]);
    expect(r.data.errors[0]!.reason).toMatch(/amount/);
    expect(await count()).toBe(before);
  });

  it('updates and removes lists; unknown ids are row errors and change nothing', async () => {
    const list = await call<{ data: Array<{ _id: string; title: string }> }>(
      t.app,
      'POST',
      admin('sale/query'),
      {
        token: owner,
        body: { page: { index: 1, size: 5 } },
      },
    );
    const ids = list.data.data.map((x) => x._id);
    const bad = await call<{ errors: Array<{ row: number; id?: string; code: number }> }>(
      t.app,
      'POST',
      simple('sale/update'),
      {
        token: owner,
        body: [
          { _id: ids[0], title: 'changed' },
          { _id: 'aaaaaaaaaaaaaaaaaaaaaaaa', title: 'x' },
          { title: 'no id' },
        ],
      },
    );
    expect(bad.error).toBe(2000);
    expect(bad.data.errors.map((e) => e.row)).toEqual([2, 3]);
    expect(bad.data.errors[0]!.id).toBe('aaaaaaaaaaaaaaaaaaaaaaaa');
    const still = await call<Record<string, unknown>>(t.app, 'GET', admin(`sale/${ids[0]}`), {
      token: owner,
    });
    expect(still.data.title).not.toBe('changed');

    const good = await call<{ count: number }>(t.app, 'POST', simple('sale/update'), {
      token: owner,
      body: ids.map((id, i) => ({ _id: id, title: `u${i}` })),
    });
    expect(good.error, good.raw).toBe(0);
    expect(good.data.count).toBe(5);
    const after = await call<Record<string, unknown>>(t.app, 'GET', admin(`sale/${ids[2]}`), {
      token: owner,
    });
    expect(after.data.title).toBe('u2');

    const before = await count();
    const badRemove = await call(t.app, 'POST', admin('sale/remove'), {
      token: owner,
      body: [ids[0], 'bbbbbbbbbbbbbbbbbbbbbbbb'],
    });
    expect(badRemove.error).toBe(2000);
    expect(await count()).toBe(before);
    const removed = await call<{ count: number }>(t.app, 'POST', admin('sale/remove'), {
      token: owner,
      body: ids.slice(0, 2),
    });
    expect(removed.error, removed.raw).toBe(0);
    expect(await count()).toBe(before - 2);
  });

  it('refuses empty, oversized and malformed lists with a coded error', async () => {
    const n = await count();
    for (const [url, body, code] of [
      [admin('sale/save'), [], 2001],
      [admin('sale/update'), [], 2001],
      [simple('sale/remove'), [], 2001],
      [admin('sale/save'), Array.from({ length: 1001 }, () => ({ title: 'x' })), 1000],
      [admin('sale/update'), { _id: 'x' }, 1000],
      [simple('sale/remove'), 'nope', 1000],
      [admin('sale/remove'), [42, null], 2000],
    ] as const) {
      const r = await call(t.app, 'POST', url, { token: owner, body });
      expect([r.error, r.status < 500], `${url} ${r.raw.slice(0, 200)}`).toEqual([code, true]);
    }
    expect(await count()).toBe(n);
  });

  it('answers a repeated summary from the cache and drops it on every kind of write', async () => {
    const stats = () => summaryCacheStats();
    const first = await summary();
    expect(first).toEqual(await expected());
    const h0 = stats().hits;
    expect(await summary()).toEqual(first);
    expect(stats().hits).toBe(h0 + 1);

    const ids = (
      await call<{ data: Array<{ _id: string }> }>(t.app, 'POST', admin('sale/query'), {
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
    const writes: Array<[string, () => Promise<unknown>]> = [
      [
        'create',
        () =>
          call(t.app, 'POST', simple('sale/save'), { token: owner, body: { region: 'north', amount: 11 } }),
      ],
      [
        'update',
        () => call(t.app, 'POST', simple(`sale/${ids[0]}/update`), { token: owner, body: { amount: 99 } }),
      ],
      ['remove', () => call(t.app, 'POST', admin(`sale/${ids[1]}/remove`), { token: owner, body: {} })],
      [
        'import',
        async () => {
          const res = await t.app.inject({
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
        () =>
          call(t.app, 'POST', admin('sale/save'), { token: owner, body: [{ region: 'south', amount: 5 }] }),
      ],
      [
        'bulk update',
        () =>
          call(t.app, 'POST', admin('sale/update'), {
            token: owner,
            body: [{ _id: ids[2], region: 'east' }],
          }),
      ],
      ['bulk remove', () => call(t.app, 'POST', simple('sale/remove'), { token: owner, body: [ids[0]] })],
    ];
    let last = await summary();
    for (const [name, write] of writes) {
      await summary(); // cached now
      const r = (await write()) as { error?: number; raw?: string } | undefined;
      if (r && typeof r === 'object' && 'error' in r) expect(r.error, `${name}: ${r.raw}`).toBe(0);
      const now = await summary();
      expect(now, name).toEqual(await expected());
      expect(now, name).not.toEqual(last);
      last = now;
    }
  });

  it('a refused list write leaves the cached summary valid', async () => {
    const a = await summary();
    const bad = await call(t.app, 'POST', admin('sale/save'), { token: owner, body: [{ amount: 'x' }] });
    expect(bad.error).toBe(2000);
    expect(await summary()).toEqual(a);
    expect(a).toEqual(await expected());
  });
});
