/**
 * The statistics row of a dataset view (`POST /api/app/ds/{p}/{flow}/summary`): count, sum, avg, min
 * and max of its columns over the WHOLE filtered set (the dataset's filter, its parameters and the
 * caller's filter; never the page), compared on both databases with the reference computation
 * (src/shared/query/summary.ts) over every row the show answers. Grants as for the show; hidden
 * columns stay out for end users; bad input answers a coded error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Metric, summarize } from '../../src/shared/query/summary.ts';
import { seedMember, seedProject, seedRole, seedUser } from '../helpers/access.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

interface Shown {
  rows: Record<string, unknown>[];
  count?: number;
  columns?: { key: string; title: string; type: string }[];
}
interface Stats {
  total: Record<string, number | null>;
  groups: unknown[];
}

/** A small deterministic generator: the same rows on both databases. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

describe.each(dialects)('dataset statistics on %s', (dialect) => {
  let t: TestApp;
  let owner: { id: string; token: string };
  let granted: { id: string; token: string };
  let plain: { id: string; token: string };
  let pid: string;
  let orders: string;
  const ids: Record<string, string> = {};

  const admin = <T = unknown>(path: string, body: unknown) =>
    call<T>(t.app, 'POST', `/api/admin${path}`, { token: owner.token, body });
  const show = (flow: string, body: unknown, token = granted.token) =>
    call<Shown>(t.app, 'POST', `/api/app/ds/${pid}/${flow}/show`, { token, body });
  const stats = (flow: string, body: unknown, token: string | null = granted.token) =>
    call<Stats>(t.app, 'POST', `/api/app/ds/${pid}/${flow}/summary`, {
      ...(token ? { token } : {}),
      body,
    });
  const table = async (name: string, fields: [string, string, string?, boolean?][]) => {
    const e = (await admin<{ _id: string }>(`/project/${pid}/entity/create`, { name })).data._id;
    for (const [code, type, relate, hide] of fields) {
      const r = await admin(`/project/${pid}/${e}/field/create`, {
        name: code,
        field: code,
        type,
        ...(relate ? { relate } : {}),
        ...(hide ? { hide } : {}),
      });
      expect(r.error, r.msg).toBe(0);
    }
    return e;
  };
  const save = async (entity: string, values: Record<string, unknown>) => {
    const r = await admin<{ _id: string }>(`/data/${pid}/${entity}/save`, values);
    expect(r.error, r.msg).toBe(0);
    return r.data._id;
  };
  const release = async (name: string, dataset: unknown) => {
    const c = await call<{ _id: string }>(t.app, 'POST', `/api/admin/dataset/${pid}/create`, {
      token: owner.token,
      body: { name, _dataset: dataset },
    });
    expect(c.error, c.msg).toBe(0);
    const r = await call(t.app, 'POST', `/api/admin/dataset/${pid}/${c.data._id}/release`, {
      token: owner.token,
      body: {},
    });
    expect(r.error, r.msg).toBe(0);
    return c.data._id;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await seedUser(t.app);
    granted = await seedUser(t.app);
    plain = await seedUser(t.app);
    pid = (await seedProject(t.app, owner.id, { tier: 3 })).id;
    const customers = await table('Customers', [
      ['name', 'string'],
      ['city', 'string'],
      ['secret', 'number', undefined, true],
    ]);
    orders = await table('Orders', [
      ['label', 'string'],
      ['amount', 'number'],
      ['qty', 'number'],
      ['at', 'date'],
      ['customer', 'relate', customers],
    ]);
    const cities = ['north', 'south', 'east', ''];
    const cust: string[] = [];
    for (let i = 0; i < 6; i++)
      cust.push(await save(customers, { name: `C${i}`, city: cities[i % 4], secret: i * 11 }));
    // DS_SEED=n tries other rows (the figures must agree for any).
    const next = rng(Number(process.env.DS_SEED ?? 7));
    for (let i = 0; i < 47; i++) {
      const r = next();
      await save(orders, {
        label: r < 0.1 ? '' : `L${Math.floor(r * 9)}`,
        // Decimals, negatives and empties: sums and averages must round as the reference does.
        ...(r < 0.15 ? {} : { amount: Math.round((next() * 400 - 100) * 100) / 100 }),
        ...(next() < 0.2 ? {} : { qty: Math.floor(next() * 20) }),
        at: Date.UTC(2024, Math.floor(next() * 6), 1 + Math.floor(next() * 27), 4),
        ...(next() < 0.1 ? {} : { customer: cust[Math.floor(next() * cust.length)] }),
      });
    }
    ids.rows = await release('Orders with city', {
      base: orders,
      joins: [{ as: 'c', from: 't', field: 'customer' }],
      columns: [
        { key: 'label', expr: { ref: 't.label' } },
        { key: 'amount', expr: { ref: 't.amount' } },
        { key: 'qty', expr: { ref: 't.qty' } },
        { key: 'at', expr: { ref: 't.at' } },
        { key: 'net', expr: { fn: 'div', args: [{ ref: 't.amount' }, { value: 3 }] } },
        { key: 'city', expr: { ref: 'c.city' } },
        { key: 'secret', expr: { ref: 'c.secret' } },
      ],
      where: [{ field: 'qty', type: 'number', opt: 'gte', value: { $param: 'least' } }],
      params: [{ name: 'least', type: 'number', default: 0 }],
    });
    ids.grouped = await release('By city', {
      base: orders,
      joins: [{ as: 'c', from: 't', field: 'customer' }],
      columns: [
        { key: 'city', expr: { ref: 'c.city' } },
        { key: 'amount', expr: { ref: 't.amount' } },
      ],
      group: ['city'],
      aggregates: [
        { key: 'total', fn: 'sum', of: 'amount' },
        { key: 'mean', fn: 'avg', of: 'amount' },
        { key: 'n', fn: 'count' },
      ],
    });
    // Grouped by the month of a date: compiled in two steps (by day number, then by month text).
    ids.months = await release('By month', {
      base: orders,
      columns: [
        { key: 'month', expr: { fn: 'month', args: [{ ref: 't.at' }] } },
        { key: 'amount', expr: { ref: 't.amount' } },
        { key: 'qty', expr: { ref: 't.qty' } },
      ],
      group: ['month'],
      aggregates: [
        { key: 'total', fn: 'sum', of: 'amount' },
        { key: 'mean', fn: 'avg', of: 'qty' },
        { key: 'most', fn: 'max', of: 'amount' },
        { key: 'n', fn: 'count' },
      ],
    });
    const role = await seedRole(t.app, pid, 'common', {
      dataset: [ids.rows!, ids.grouped!, ids.months!],
    });
    await seedMember(t.app, pid, granted.id, 'common', role);
    await seedMember(t.app, pid, plain.id, 'common', await seedRole(t.app, pid, 'common'));
  });
  afterAll(async () => {
    await t?.close();
  });

  /** count, then sum/avg/min/max of each number column, then count of each column and min/max of dates. */
  const metricsOf = (columns: { key: string; type: string }[]): Metric[] => {
    const out: Metric[] = [{ fn: 'count', as: 'm0' }];
    for (const c of columns) {
      if (c.type === 'number')
        for (const fn of ['sum', 'avg', 'min', 'max'] as const)
          out.push({ fn, field: c.key, as: `m${out.length}` });
      if (c.type === 'date')
        for (const fn of ['min', 'max'] as const) out.push({ fn, field: c.key, as: `m${out.length}` });
      if (out.length < 20) out.push({ fn: 'count', field: c.key, as: `m${out.length}` });
    }
    return out.slice(0, 20);
  };

  /** The answer against the reference over every row the show gives for the same request. */
  async function agrees(flow: string, request: { params?: unknown; query?: unknown }, token = granted.token) {
    const all = await show(flow, { ...request, all: true, count: true }, token);
    expect(all.error, all.msg).toBe(0);
    const columns = all.data.columns!;
    const metrics = metricsOf(columns);
    const got = await stats(flow, { ...request, summary: { metrics } }, token);
    expect(got.error, got.msg).toBe(0);
    const fields = Object.fromEntries(columns.map((c) => [c.key, c.type])) as Record<
      string,
      'text' | 'number' | 'date'
    >;
    const want = summarize(all.data.rows, { metrics, accuracy: 2 }, fields);
    // Counts, minimums and maximums exactly. A sum or an average within one hundredth: the database
    // adds the doubles in its own order and the reference adds them compensated, so a result at a
    // half (19.675 ± a few units in the last place) may round to either neighbour, as the table
    // summary's may.
    for (const m of metrics) {
      const name = m.as!;
      const g = got.data.total[name];
      const w = want.total[name];
      if ((m.fn === 'sum' || m.fn === 'avg') && typeof g === 'number' && typeof w === 'number')
        expect(Math.abs(g - w), `${m.fn} of ${m.field}`).toBeLessThanOrEqual(0.0100001);
      else expect(g, `${m.fn} of ${m.field ?? 'rows'}`).toBe(w);
    }
    expect(got.data.total.m0).toBe(all.data.count);
    return got.data.total;
  }

  it('answers the reference over the whole filtered set, whatever the page', async () => {
    const requests: { params?: unknown; query?: unknown }[] = [
      {},
      { params: { least: 10 } },
      { query: [{ field: 'city', type: 'text', opt: 'eq', value: 'north' }] },
      { query: [{ field: 'amount', type: 'number', opt: 'gt', value: 50 }], params: { least: 3 } },
      { query: [{ field: 'label', type: 'text', opt: 'isnull' }] },
      // Nothing matches: counts 0, sums 0, the rest empty.
      { query: [{ field: 'amount', type: 'number', opt: 'gt', value: 1e9 }] },
    ];
    const totals = [];
    for (const r of requests) totals.push(await agrees(ids.rows!, r));
    // The filters did narrow the set (the comparisons were not all over the same rows).
    expect(new Set(totals.map((x) => x.m0)).size).toBeGreaterThan(3);
    expect(totals.at(-1)).toMatchObject({ m0: 0 });
    // A page in the request is not the set: the figures are the same with or without one.
    const paged = await stats(ids.rows!, {
      summary: { metrics: [{ fn: 'sum', field: 'amount', as: 's' }] },
    });
    const full = await show(ids.rows!, { all: true });
    const sum = summarize(
      full.data.rows,
      { metrics: [{ fn: 'sum', field: 'amount', as: 's' }] },
      {
        amount: 'number',
      },
    ).total.s;
    expect(paged.data.total.s).toBe(sum);
  });

  it('a grouped dataset: statistics over its groups', async () => {
    await agrees(ids.grouped!, {});
    await agrees(ids.grouped!, { query: [{ field: 'total', type: 'number', opt: 'gt', value: 0 }] });
    await agrees(ids.months!, {});
    await agrees(ids.months!, { query: [{ field: 'month', type: 'text', opt: 'ne', value: '2024-03' }] });
  });

  it('statistics of shown averages are of the shown (rounded) values, halves away from zero', async () => {
    // One row per group, so no summation order is involved: 1.005 and 2.675 are stored just below
    // the half, shown as 1.01 and 2.68 (half away from zero on their decimal text).
    const halves = await table('Halves', [
      ['kind', 'string'],
      ['v', 'number'],
    ]);
    await save(halves, { kind: 'a', v: 1.005 });
    await save(halves, { kind: 'b', v: 2.675 });
    const flow = await release('Halves', {
      base: halves,
      columns: [
        { key: 'kind', expr: { ref: 't.kind' } },
        { key: 'v', expr: { ref: 't.v' } },
      ],
      group: ['kind'],
      aggregates: [{ key: 'mean', fn: 'avg', of: 'v' }],
    });
    const shown = await show(flow, { all: true }, owner.token);
    expect(shown.data.rows).toEqual([
      { kind: 'a', mean: 1.01 },
      { kind: 'b', mean: 2.68 },
    ]);
    const got = await stats(
      flow,
      {
        summary: {
          metrics: [
            { fn: 'sum', field: 'mean', as: 's' },
            { fn: 'min', field: 'mean', as: 'lo' },
            { fn: 'max', field: 'mean', as: 'hi' },
          ],
        },
      },
      owner.token,
    );
    expect(got.error, got.msg).toBe(0);
    expect(got.data.total).toEqual({ s: 3.69, lo: 1.01, hi: 2.68 });
  });

  it('checks who may ask, as the show does, and keeps hidden columns out', async () => {
    const body = { summary: { metrics: [{ fn: 'count', as: 'n' }] } };
    expect((await stats(ids.rows!, body, plain.token)).error).toBe(1102);
    expect((await stats(ids.rows!, body, null)).error).toBe(1100);
    const secret = { summary: { metrics: [{ fn: 'sum', field: 'secret', as: 's' }] } };
    expect((await stats(ids.rows!, secret)).error).toBe(1450);
    // The builder sees the hidden column: its figures agree with the reference too.
    await agrees(ids.rows!, {}, owner.token);
    const own = await stats(ids.rows!, secret, owner.token);
    expect(own.error, own.msg).toBe(0);
  });

  it('refuses bad input with a coded error', async () => {
    const m = (metrics: unknown) => stats(ids.rows!, { summary: { metrics } });
    expect((await m([{ fn: 'sum', field: 'label', as: 's' }])).error).toBe(1450);
    expect((await m([{ fn: 'sum', field: 'nosuch', as: 's' }])).error).toBe(1450);
    expect((await m([{ fn: 'median', field: 'amount' }])).error).toBe(1450);
    expect((await m([])).error).toBe(1000);
    const grouped = await stats(ids.rows!, {
      summary: { group: ['city'], metrics: [{ fn: 'count', as: 'n' }] },
    });
    expect(grouped.error).toBe(2260);
    expect(
      (await stats(ids.rows!, { params: { least: { $gt: 1 } }, summary: { metrics: [{ fn: 'count' }] } }))
        .error,
    ).toBe(1924);
    // A body without the statistics asked for is malformed.
    expect((await stats(ids.rows!, { page: { index: 1, size: 5 } })).error).toBe(1000);
  });
});
