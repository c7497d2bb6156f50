/**
 * Indexes that follow use (data/auto-index.ts): a query shape that recurs slow gets its compound
 * index, a grouped summary its covering index; the plans use them (EXPLAIN), answers are the same
 * with and without them (and the reference evaluator's), builders list, pin and drop them, and an
 * unpinned index unused long enough is dropped.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMeta } from '../../src/server/data/meta.ts';
import { queryRecords } from '../../src/server/data/records.ts';
import { QueryCompiler } from '../../src/server/data/sql-query.ts';
import { evaluate, normalizeOrThrow } from '../../src/shared/query/index.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

interface Listed {
  indexes: Array<{
    _id: string;
    kind: string;
    fields: Array<{ field: string; order?: string }>;
    pinned: boolean;
    uses: number;
  }>;
  watching: Array<{ shape: string; runs: number }>;
}

describe.each(dialects)('managed indexes on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let project: string;
  let otherProject: string;
  const admin = (path: string) => `/api/admin/data/${project}/${path}`;
  const PAGE = {
    query: {
      $and: [
        { field: 'status', type: 'text', opt: 'eq', value: 'open' },
        { field: 'amount', type: 'number', opt: 'gt', value: 20 },
      ],
    },
    sort: [{ field: 'created', order: 'desc' }],
    page: { index: 2, size: 5 },
  };
  const SUMMARY = {
    summary: { group: ['region'], metrics: [{ fn: 'count' }, { fn: 'sum', field: 'amount' }] },
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, {
      user: 'autoidx1',
      pwd: 'abc12345',
      phone: '13600000192',
    }));
    const mk = async (name: string) =>
      (
        await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
          token: owner,
          body: { name },
        })
      ).data._id;
    project = await mk('I');
    otherProject = await mk('J');
    for (const p of [project, otherProject]) {
      const P = `/api/admin/project/${p}`;
      await call(t.app, 'POST', `${P}/entity/create`, {
        token: owner,
        body: { name: 'Order', code: 'order' },
      });
      for (const [name, type, field] of [
        ['Title', 'string', 'title'],
        ['Status', 'string', 'status'],
        ['Region', 'string', 'region'],
        ['Amount', 'number', 'amount'],
        ['Created', 'date', 'created'],
      ] as const) {
        const r = await call(t.app, 'POST', `${P}/order/field/create`, {
          token: owner,
          body: { name, type, field },
        });
        expect(r.error, r.raw).toBe(0);
      }
    }
    const rows = Array.from({ length: 400 }, (_, i) => ({
      title: `order ${i}`,
      status: ['open', 'done', 'late', '', 'held'][i % 5],
      region: ['north', 'south', 'east', 'west', '', 'mid', 'far', 'near'][i % 8],
      amount: (i * 37) % 100,
      created: 1_700_000_000_000 + ((i * 7919) % 400) * 3600_000,
    }));
    const r = await call(t.app, 'POST', admin('order/save'), { token: owner, body: rows });
    expect(r.error, r.raw).toBe(0);
    // Every run counts as slow here: the shapes recur three times before their index is built.
    Object.assign(t.app.autoIndex.options, { slowMs: 0, recur: 3, maxPerTable: 6 });
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = async () => {
    const r = await call<Listed>(t.app, 'POST', admin('order/indexes'), { token: owner, body: {} });
    expect(r.error, r.raw).toBe(0);
    return r.data;
  };
  const page = async () => {
    const r = await call<{ data: Array<{ _id: string }> }>(t.app, 'POST', admin('order/query'), {
      token: owner,
      body: PAGE,
    });
    expect(r.error, r.raw).toBe(0);
    return r.data.data.map((x) => x._id);
  };
  const summary = async () => {
    const r = await call<unknown>(t.app, 'POST', admin('order/summary'), { token: owner, body: SUMMARY });
    expect(r.error, r.raw).toBe(0);
    return r.data;
  };

  /** The plan of the page query (on PostgreSQL with sequential scans and sorts priced out: a tiny table). */
  async function plan(body: object, summaryGroup?: string[]): Promise<string> {
    const { db } = t.app.database;
    const meta = await loadMeta(db, project, 'order');
    const q = normalizeOrThrow(body, { now: Date.now(), user: null, fields: meta.queryTypes });
    const c = new QueryCompiler(dialect, meta.columns);
    const table = sql.table(meta.table);
    const col = (f: string) => sql.ref(`t.${meta.columns[f]!.column}`);
    const stmt = summaryGroup
      ? sql`SELECT ${sql.join(summaryGroup.map(col))}, count(*), sum(${col('amount')}) FROM ${table} t WHERE ${c.where(q.where)} GROUP BY ${sql.join(summaryGroup.map(col))}`
      : sql`SELECT t._id FROM ${table} t WHERE ${c.where(q.where)} ORDER BY ${c.orderBy(q)} LIMIT ${q.limit} OFFSET ${q.offset}`;
    if (dialect === 'sqlite') {
      const r = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${stmt}`.execute(db);
      return r.rows.map((x) => x.detail).join('\n');
    }
    return db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      await sql`SET LOCAL enable_sort = off`.execute(trx);
      const r = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${stmt}`.execute(trx);
      return r.rows.map((x) => x['QUERY PLAN']).join('\n');
    });
  }

  async function indexNames(): Promise<string[]> {
    const { db } = t.app.database;
    const meta = await loadMeta(db, project, 'order');
    if (dialect === 'sqlite') {
      const r = await sql<{
        name: string;
      }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ${meta.table}`.execute(db);
      return r.rows.map((x) => x.name);
    }
    const r = await sql<{
      indexname: string;
    }>`SELECT indexname FROM pg_indexes WHERE tablename = ${meta.table}`.execute(db);
    return r.rows.map((x) => x.indexname);
  }

  async function reference(): Promise<string[]> {
    const { db, dialect: d } = t.app.database;
    const meta = await loadMeta(db, project, 'order');
    const all = await queryRecords(
      db,
      d,
      meta,
      normalizeOrThrow(
        { page: { index: 1, size: 100_000 } },
        { now: Date.now(), user: null, fields: meta.queryTypes },
      ),
    );
    const q = normalizeOrThrow(PAGE, { now: Date.now(), user: null, fields: meta.queryTypes });
    return evaluate(all.data, q, meta.queryTypes).rows.map((r) => String(r._id));
  }

  it('makes a single-column index only for number and date fields (none for text)', async () => {
    const names = await indexNames();
    const meta = await loadMeta(t.app.database.db, project, 'order');
    expect(names.some((n) => n.startsWith('ax_'))).toBe(false);
    const perField = names.filter((n) => /_c_[0-9a-f]{24}$/.test(n)).sort();
    expect(perField).toEqual(
      ['amount', 'created'].map((f) => `${meta.table}_${meta.columns[f]!.column}`).sort(),
    );
  });

  it('contains + sort by a number answers from the default index the first time (EXPLAIN), same rows', async () => {
    const CONTAINS = {
      query: { $and: [{ field: 'title', type: 'text', opt: 'contain', value: 'order 1' }] },
      sort: [{ field: 'amount', order: 'asc' }],
      page: { index: 1, size: 20 },
    };
    const meta = await loadMeta(t.app.database.db, project, 'order');
    const amountIx = `${meta.table}_${meta.columns.amount!.column}`;
    // No shape recorded yet, no managed index: the field's own index serves the sort. (Nothing is
    // recorded here either: later tests count their own shapes.)
    expect((await list()).indexes).toEqual([]);
    t.app.autoIndex.options.enabled = false;
    for (const order of ['asc', 'desc'] as const) {
      const body = { ...CONTAINS, sort: [{ field: 'amount', order }] };
      const p = await plan(body);
      expect(p).toContain(amountIx);
      if (dialect === 'sqlite') {
        // The index yields rows in amount order; only ties on amount are sorted by _id.
        expect(p).toMatch(new RegExp(`SCAN t USING INDEX ${amountIx}`));
        expect(p).not.toContain('USE TEMP B-TREE FOR ORDER BY');
      } else {
        expect(p).toMatch(/Index Scan( Backward)? using/);
      }
      const r = await call<{ data: Array<{ _id: string }> }>(t.app, 'POST', admin('order/query'), {
        token: owner,
        body,
      });
      expect(r.error, r.raw).toBe(0);
      const all = await queryRecords(
        t.app.database.db,
        t.app.database.dialect,
        meta,
        normalizeOrThrow(
          { page: { index: 1, size: 100_000 } },
          { now: Date.now(), user: null, fields: meta.queryTypes },
        ),
      );
      const q = normalizeOrThrow(body, { now: Date.now(), user: null, fields: meta.queryTypes });
      expect(r.data.data.map((x) => x._id)).toEqual(
        evaluate(all.data, q, meta.queryTypes).rows.map((x) => String(x._id)),
      );
    }
    t.app.autoIndex.options.enabled = true;
    expect((await list()).indexes).toEqual([]);
  });

  it('the default order and a sort on _id walk the primary key (EXPLAIN: no sort), build nothing, page as the reference does', async () => {
    const { db } = t.app.database;
    const meta = await loadMeta(db, project, 'order');
    const ctx = { now: Date.now(), user: null, fields: meta.queryTypes };
    const all = await queryRecords(
      db,
      dialect,
      meta,
      normalizeOrThrow({ page: { index: 1, size: 100_000 } }, ctx),
    );
    /** Every page of `body` at `size` rows, in turn, against the reference evaluator's order. */
    const pages = async (body: object, size: number) => {
      const expected = evaluate(
        all.data,
        normalizeOrThrow({ ...body, page: { index: 1, size: 100_000 } }, ctx),
        meta.queryTypes,
      ).rows.map((r) => String(r._id));
      const got: string[] = [];
      for (let index = 1; got.length < expected.length && index < 100; index++) {
        const r = await call<{ data: Array<{ _id: string }> }>(t.app, 'POST', admin('order/query'), {
          token: owner,
          body: { ...body, page: { index, size } },
        });
        expect(r.error, r.raw).toBe(0);
        expect(r.data.data.length).toBeGreaterThan(0);
        got.push(...r.data.data.map((x) => x._id));
      }
      expect(got).toEqual(expected);
    };
    const pkey = dialect === 'postgres' ? `${meta.table}_pkey` : `sqlite_autoindex_${meta.table}_1`;
    for (const body of [
      {},
      { sort: [{ field: '_id', order: 'asc' }] },
      { sort: [{ field: '_id', order: 'desc' }] },
    ]) {
      const p = await plan({ ...body, page: { index: 3, size: 20 } });
      expect(p).toContain(pkey);
      if (dialect === 'postgres') {
        expect(p).toMatch(/Limit/);
        expect(p).toMatch(/Index (Only )?Scan( Backward)? using/);
        expect(p).not.toMatch(/Sort/);
      } else expect(p).not.toContain('TEMP B-TREE');
      // Served already: recurring, it is neither watched nor indexed.
      await pages(body, 37);
      await pages(body, 37);
      await t.app.autoIndex.idle();
      const l = await list();
      expect(l.indexes).toEqual([]);
      expect(l.watching.filter((w) => w.shape.includes('_id'))).toEqual([]);
    }
    // A sort with ties (and nulls: '' and missing statuses) ends in `_id` ascending, page after page.
    t.app.autoIndex.options.enabled = false;
    await pages({ sort: [{ field: 'status', order: 'desc' }] }, 50);
    await pages({ sort: [{ field: 'amount', order: 'asc' }] }, 50);
    t.app.autoIndex.options.enabled = true;
  });

  it('a summary behind a range does not look rows up through the range field index (SQLite plan)', async () => {
    if (dialect !== 'sqlite') return;
    const { db } = t.app.database;
    const meta = await loadMeta(db, project, 'order');
    const q = normalizeOrThrow(
      { query: { $and: [{ field: 'amount', type: 'number', opt: 'gt', value: 0 }] } },
      { now: Date.now(), user: null, fields: meta.queryTypes },
    );
    const region = sql.ref(`t.${meta.columns.region!.column}`);
    const explain = async (c: QueryCompiler) =>
      (
        await sql<{
          detail: string;
        }>`EXPLAIN QUERY PLAN SELECT ${region}, count(*) FROM ${sql.table(meta.table)} t WHERE ${c.where(q.where)} GROUP BY ${region}`.execute(
          db,
        )
      ).rows
        .map((x) => x.detail)
        .join('\n');
    const amountIx = `${meta.table}_${meta.columns.amount!.column}`;
    // A page may use it (a range with a LIMIT), the whole-table aggregate scans instead.
    expect(await explain(new QueryCompiler('sqlite', meta.columns))).toContain(amountIx);
    expect(await explain(new QueryCompiler('sqlite', meta.columns, 't', false))).not.toContain(amountIx);
  });

  it('builds the compound index of a recurring page shape, uses it, and answers the same', async () => {
    const expected = await reference();
    const before = await page();
    expect(before).toEqual(expected);
    expect(await plan(PAGE)).not.toMatch(/ax_/);
    await page();
    await page();
    await t.app.autoIndex.idle();
    const l = await list();
    const made = l.indexes.find((x) => x.kind === 'query');
    expect(made, JSON.stringify(l)).toBeDefined();
    expect(made!.fields.map(({ field, order }) => (order ? { field, order } : { field }))).toEqual([
      { field: 'status' },
      { field: 'created', order: 'desc' },
      { field: '_id', order: 'asc' },
    ]);
    expect((await indexNames()).filter((n) => n.startsWith('ax_'))).toHaveLength(1);
    expect(await plan(PAGE)).toMatch(/ax_[0-9a-f]{24}_[0-9a-f]{10}/);
    expect(await page()).toEqual(before);
    await page();
    const again = await list();
    expect(again.indexes.find((x) => x._id === made!._id)!.uses).toBeGreaterThanOrEqual(2);
  });

  it('builds the covering index of a recurring grouped summary (with writes between), same answers', async () => {
    const answers: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      // A write between: the summary is computed again, not answered from the cache.
      const w = await call(t.app, 'POST', admin('order/save'), {
        token: owner,
        body: { title: `extra ${i}`, status: 'open', region: 'north', amount: 1 },
      });
      expect(w.error).toBe(0);
      answers.push(await summary());
    }
    await t.app.autoIndex.idle();
    const l = await list();
    const cover = l.indexes.find((x) => x.kind === 'summary');
    expect(cover, JSON.stringify(l)).toBeDefined();
    expect(cover!.fields.map((f) => f.field)).toEqual(['region', 'amount']);
    const p = await plan({}, ['region']);
    expect(p).toMatch(/ax_/);
    if (dialect === 'sqlite') expect(p).toMatch(/COVERING INDEX/);
    // Dropping it changes no answer.
    const withIndex = await summary();
    expect(withIndex).toEqual(answers[2]);
    const r = await call(t.app, 'POST', admin(`order/indexes/${cover!._id}/remove`), {
      token: owner,
      body: {},
    });
    expect(r.error, r.raw).toBe(0);
    expect((await list()).indexes.some((x) => x._id === cover!._id)).toBe(false);
    // A write so the summary is computed again, now without the index.
    const w = await call(t.app, 'POST', admin('order/save'), {
      token: owner,
      body: { title: 'x', amount: 0 },
    });
    expect(w.error).toBe(0);
    const after = (await summary()) as { total: { count: number; sum_amount: number } };
    const prev = withIndex as { total: { count: number; sum_amount: number } };
    expect(after.total.count).toBe(prev.total.count + 1);
    expect(after.total.sum_amount).toBe(prev.total.sum_amount);
  });

  it('pins an index; the disuse sweep drops unpinned ones only', async () => {
    const l = await list();
    const idx = l.indexes[0]!;
    const pin = await call<{ pinned: boolean }>(t.app, 'POST', admin(`order/indexes/${idx._id}/pin`), {
      token: owner,
      body: { pinned: true },
    });
    expect(pin.error, pin.raw).toBe(0);
    expect(pin.data.pinned).toBe(true);
    // Another shape, indexed, then left unused.
    const other = {
      query: { $and: [{ field: 'region', type: 'text', opt: 'eq', value: 'east' }] },
      sort: [{ field: 'amount', order: 'asc' }],
    };
    for (let i = 0; i < 3; i++)
      await call(t.app, 'POST', admin('order/query'), { token: owner, body: other });
    await t.app.autoIndex.idle();
    expect((await list()).indexes).toHaveLength(2);
    const dropped = await t.app.autoIndex.sweep(Date.now() + t.app.autoIndex.options.unusedMs + 1000);
    expect(dropped).toBe(1);
    const left = await list();
    expect(left.indexes.map((x) => x._id)).toEqual([idx._id]);
    expect((await indexNames()).filter((n) => n.startsWith('ax_'))).toHaveLength(1);
    expect(await page()).toEqual(await reference());
  });

  it('keeps to the per-table bound', async () => {
    Object.assign(t.app.autoIndex.options, { maxPerTable: 1 });
    const third = { query: { $and: [{ field: 'title', type: 'text', opt: 'eq', value: 'order 3' }] } };
    for (let i = 0; i < 4; i++)
      await call(t.app, 'POST', admin('order/query'), { token: owner, body: third });
    await t.app.autoIndex.idle();
    expect((await list()).indexes).toHaveLength(1);
    Object.assign(t.app.autoIndex.options, { maxPerTable: 6 });
  });

  it('refuses bad index calls with coded errors, changing nothing', async () => {
    const idx = (await list()).indexes[0]!;
    const other = `/api/admin/data/${otherProject}/order/indexes`;
    for (const [url, body, code] of [
      [`${other}/${idx._id}/remove`, {}, 2002],
      [`${other}/${idx._id}/pin`, { pinned: false }, 2002],
      [admin('order/indexes/nothex/remove'), {}, 1000],
      [admin('order/indexes/aaaaaaaaaaaaaaaaaaaaaaaa/pin'), { pinned: true }, 2002],
      [admin(`order/indexes/${idx._id}/pin`), {}, 1000],
      [admin(`order/indexes/${idx._id}/pin`), { pinned: 'yes' }, 1000],
    ] as const) {
      const r = await call(t.app, 'POST', url, { token: owner, body });
      expect(r.error, `${url} ${r.raw}`).toBe(code);
    }
    const still = (await list()).indexes[0]!;
    expect(still).toMatchObject({ _id: idx._id, pinned: true });
  });

  it('drops the managed indexes of a removed field with it', async () => {
    const P = `/api/admin/project/${project}`;
    const fields = await call<{ field: Array<{ _id: string; _code?: string; field?: string }> }>(
      t.app,
      'POST',
      admin('order/meta'),
      { token: owner, body: {} },
    );
    expect(fields.error).toBe(0);
    const before = await list();
    expect(before.indexes[0]!.fields.some((f) => f.field === 'status')).toBe(true);
    const status = fields.data.field.find((f) => (f._code ?? f.field) === 'status');
    expect(status, JSON.stringify(fields.data.field[0])).toBeDefined();
    const r = await call(t.app, 'GET', `${P}/order/field/${status!._id}/remove?confirm=1`, { token: owner });
    expect(r.error, r.raw).toBe(0);
    expect((await list()).indexes).toEqual([]);
    expect((await indexNames()).filter((n) => n.startsWith('ax_'))).toEqual([]);
  });

  it("a grouping's first slow page builds the index of its order at once (page before or after the grouped summary), same pages", async () => {
    const { db } = t.app.database;
    const meta = await loadMeta(db, project, 'order');
    const ctx = { now: Date.now(), user: null, fields: meta.queryTypes };
    const all = await queryRecords(
      db,
      dialect,
      meta,
      normalizeOrThrow({ page: { index: 1, size: 100_000 } }, ctx),
    );
    /** A page of `body` from the server, checked against the reference evaluator's. */
    const pageOf = async (body: { sort: object[]; page: { index: number; size: number } }) => {
      const r = await call<{ data: Array<{ _id: string }> }>(t.app, 'POST', admin('order/query'), {
        token: owner,
        body,
      });
      expect(r.error, r.raw).toBe(0);
      const expected = evaluate(all.data, normalizeOrThrow(body, ctx), meta.queryTypes).rows.map((x) =>
        String(x._id),
      );
      expect(r.data.data.map((x) => x._id)).toEqual(expected);
    };
    const grouped = async (group: string[]) => {
      const r = await call(t.app, 'POST', admin('order/summary'), {
        token: owner,
        body: { summary: { group, metrics: [{ fn: 'count' }] } },
      });
      expect(r.error, r.raw).toBe(0);
    };
    const fieldsOf = async () =>
      (await list()).indexes.map((x) =>
        x.fields.map(({ field, order }) => `${field}:${order ?? ''}`).join(','),
      );
    expect(await fieldsOf()).toEqual([]);
    // A page sorted by title, then a grouping by region: neither predicts the other.
    const byTitle = { sort: [{ field: 'title', order: 'asc' }], page: { index: 2, size: 7 } };
    await pageOf(byTitle);
    await grouped(['region']);
    await t.app.autoIndex.idle();
    expect(await fieldsOf()).toEqual([]);
    // The grouping's page after its summary: built after one run.
    const byRegion = { sort: [{ field: 'region', order: 'asc' }], page: { index: 3, size: 9 } };
    await pageOf(byRegion);
    await t.app.autoIndex.idle();
    expect(await fieldsOf()).toEqual(['region:asc,_id:asc']);
    expect(await plan(byRegion)).toMatch(/ax_[0-9a-f]{24}_[0-9a-f]{10}/);
    await pageOf(byRegion);
    // The page first (a user's sort within the groups), then its grouped summary: built then.
    const withSort = {
      sort: [
        { field: 'created', order: 'asc' },
        { field: 'amount', order: 'desc' },
      ],
      page: { index: 2, size: 11 },
    };
    await pageOf(withSort);
    await t.app.autoIndex.idle();
    expect(await fieldsOf()).toEqual(['region:asc,_id:asc']);
    await grouped(['created']);
    await t.app.autoIndex.idle();
    expect((await fieldsOf()).sort()).toEqual(['created:asc,amount:desc,_id:asc', 'region:asc,_id:asc']);
    await pageOf(withSort);
    // Title's page was never grouped: still one slow run short of its index.
    expect((await list()).watching.find((w) => w.shape === 'q|title:asc,_id:asc')).toMatchObject({ runs: 1 });
  });
});
