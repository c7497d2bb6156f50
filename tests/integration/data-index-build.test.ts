/**
 * Index builds never make a write wait for them (data/auto-index.ts, db/sqlite-gate.ts). On SQLite a
 * managed index is built in a child process that a write stops: the write commits while the build
 * is still pending (the index does not exist yet), the build is tried again once writes are quiet,
 * and the index is then built and used (EXPLAIN). After `deferMs` the build is no longer stopped
 * (the cap), so the write then waits for it. No timing threshold: the assertions are about order.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildStage } from '../../src/server/data/auto-index.ts';
import { loadMeta } from '../../src/server/data/meta.ts';
import { QueryCompiler } from '../../src/server/data/sql-query.ts';
import { gateOf } from '../../src/server/db/sqlite-gate.ts';
import { normalizeOrThrow } from '../../src/shared/query/index.ts';
import { call, createTestApp, registerUser, type TestApp } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';

const dialects = await testDialects();

const ROWS = 60_000;

interface During {
  rows: string[];
  id: string;
  names: string[];
  stages: BuildStage[];
}

describe('index builds on sqlite yield to writes', () => {
  let t: TestApp;
  let owner: string;
  let project: string;
  const admin = (path: string) => `/api/admin/data/${project}/${path}`;
  const body = (sort: string) => ({
    query: { $and: [{ field: 'status', type: 'text', opt: 'eq', value: 'open' }] },
    sort: [{ field: sort, order: 'desc' }],
    page: { index: 1, size: 5 },
  });

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    ({ token: owner } = await registerUser(t.app, {
      user: 'idxbuild1',
      pwd: 'abc12345',
      phone: '13600000201',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'B' },
      })
    ).data._id;
    const P = `/api/admin/project/${project}`;
    await call(t.app, 'POST', `${P}/entity/create`, { token: owner, body: { name: 'Order', code: 'order' } });
    for (const [name, type, field] of [
      ['Status', 'string', 'status'],
      ['Title', 'string', 'title'],
      ['Amount', 'number', 'amount'],
      ['Created', 'date', 'created'],
    ] as const) {
      const r = await call(t.app, 'POST', `${P}/order/field/create`, {
        token: owner,
        body: { name, type, field },
      });
      expect(r.error, r.raw).toBe(0);
    }
    // Enough rows that a build is still going when the write arrives (a child process starts first).
    const meta = await loadMeta(t.app.database.db, project, 'order');
    const raw = t.app.database.sqlite!;
    const c = (f: string) => meta.columns[f]!.column;
    const ins = raw.prepare(
      `INSERT INTO "${meta.table}" (_id, _created_at, _updated_at, "${c('status')}", "${c('title')}", "${c('amount')}", "${c('created')}") VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    raw.transaction(() => {
      for (let i = 0; i < ROWS; i++)
        ins.run(
          (0x100000000000 + i).toString(16).padStart(24, '0'),
          i,
          i,
          ['open', 'done', 'held'][i % 3],
          `order ${i} ${(i * 7919) % 10007}`,
          i % 1000,
          1_700_000_000_000 + ((i * 7919) % 100_003) * 1000,
        );
    })();
    Object.assign(t.app.autoIndex.options, { slowMs: 0, recur: 2, quietMs: 200 });
  });
  afterAll(async () => {
    t.app.autoIndex.onStage = null;
    await t?.close();
  });

  async function indexNames(): Promise<string[]> {
    const meta = await loadMeta(t.app.database.db, project, 'order');
    const r = await sql<{
      name: string;
    }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ${meta.table}`.execute(
      t.app.database.db,
    );
    return r.rows.map((x) => x.name).filter((n) => n.startsWith('ax_'));
  }

  async function plan(b: object): Promise<string> {
    const { db } = t.app.database;
    const meta = await loadMeta(db, project, 'order');
    const q = normalizeOrThrow(b, { now: Date.now(), user: null, fields: meta.queryTypes });
    const c = new QueryCompiler('sqlite', meta.columns);
    const r = await sql<{
      detail: string;
    }>`EXPLAIN QUERY PLAN SELECT t._id FROM ${sql.table(meta.table)} t WHERE ${c.where(q.where)} ORDER BY ${c.orderBy(q)} LIMIT ${q.limit}`.execute(
      db,
    );
    return r.rows.map((x) => x.detail).join('\n');
  }

  const query = async (b: object) => {
    const r = await call<{ data: Array<{ _id: string }> }>(t.app, 'POST', admin('order/query'), {
      token: owner,
      body: b,
    });
    expect(r.error, r.raw).toBe(0);
    return r.data.data.map((x) => x._id);
  };
  const save = async (title: string) => {
    const r = await call<{ _id: string }>(t.app, 'POST', admin('order/save'), {
      token: owner,
      body: { title, status: 'open', amount: 5, created: 1_800_000_000_000 },
    });
    expect(r.error, r.raw).toBe(0);
    return r.data._id;
  };

  /** Recur a page shape until its build starts; then run `during` (once) and answer its result. */
  async function duringBuild<T>(
    sort: string,
    during: () => Promise<T>,
  ): Promise<{ stages: BuildStage[]; result: Promise<T> }> {
    const stages: BuildStage[] = [];
    let result: Promise<T> | null = null;
    let started!: () => void;
    const running = new Promise<void>((r) => {
      started = r;
    });
    t.app.autoIndex.onStage = (stage) => {
      stages.push(stage);
      if (stage === 'running' && !result) {
        result = during();
        started();
      }
    };
    for (let i = 0; i < t.app.autoIndex.options.recur; i++) await query(body(sort));
    await running;
    return { stages, result: result as unknown as Promise<T> };
  }

  it('a write during a build commits first; the build is retried when writes are quiet, then used', async () => {
    const gate = gateOf(t.app.database.sqlite!);
    const preempted = gate.preempted;
    const expected = await query(body('created'));
    const { stages, result } = await duringBuild('created', async (): Promise<During> => {
      // A read and a write while the index is being built.
      const [rows, id] = await Promise.all([query(body('amount')), save('during the build')]);
      return { rows, id, names: await indexNames(), stages: [...stages] };
    });
    const during = await result;
    // The write committed while the build was still pending: no index yet, the build was stopped.
    expect(during.names).toEqual([]);
    expect(gate.preempted).toBeGreaterThan(preempted);
    expect(during.rows).toHaveLength(5);
    const got = await call<{ title: string }>(t.app, 'GET', admin(`order/${during.id}`), { token: owner });
    expect(got.error, got.raw).toBe(0);
    expect(got.data.title).toBe('during the build');
    // Then it is built after a quiet spell, and used.
    await t.app.autoIndex.idle();
    expect(stages[0]).toBe('running');
    expect(stages).toContain('preempted');
    expect(stages.at(-1)).toBe('done');
    expect(await indexNames()).toHaveLength(1);
    expect(await plan(body('created'))).toMatch(/ax_[0-9a-f]{24}_[0-9a-f]{10}/);
    // The stopped build left the file sound, and the answers are unchanged (plus the new row).
    const check = await sql<{ integrity_check: string }>`PRAGMA integrity_check`.execute(t.app.database.db);
    expect(check.rows[0]?.integrity_check).toBe('ok');
    expect(await query(body('created'))).toEqual([during.id, ...expected.slice(0, 4)]);
  });

  it('past deferMs a build is no longer stopped: the write waits for it (the cap)', async () => {
    const gate = gateOf(t.app.database.sqlite!);
    t.app.autoIndex.options.deferMs = 0;
    try {
      const preempted = gate.preempted;
      const before = (await indexNames()).length;
      const { result } = await duringBuild('amount', async () => {
        await save('waits for the build');
        return indexNames();
      });
      // The write went after the build: the index exists when it commits.
      expect((await result).length).toBe(before + 1);
      expect(gate.preempted).toBe(preempted);
      await t.app.autoIndex.idle();
    } finally {
      t.app.autoIndex.options.deferMs = 10 * 60_000;
    }
  });
});

describe.each(dialects)('default index backfill on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let project: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await registerUser(t.app, {
      user: 'idxfill1',
      pwd: 'abc12345',
      phone: '13600000202',
    }));
    project = (
      await call<{ _id: string }>(t.app, 'POST', '/api/common/project/create', {
        token: owner,
        body: { name: 'F' },
      })
    ).data._id;
    const P = `/api/admin/project/${project}`;
    await call(t.app, 'POST', `${P}/entity/create`, { token: owner, body: { name: 'Old', code: 'old' } });
    for (const [name, type, field] of [
      ['Title', 'string', 'title'],
      ['Amount', 'number', 'amount'],
      ['Due', 'date', 'due'],
    ] as const) {
      const r = await call(t.app, 'POST', `${P}/old/field/create`, {
        token: owner,
        body: { name, type, field },
      });
      expect(r.error, r.raw).toBe(0);
    }
    const rows = Array.from({ length: 300 }, (_, i) => ({
      title: `row ${i}`,
      amount: (i * 37) % 101,
      due: 1_700_000_000_000 + ((i * 7919) % 300) * 86_400_000,
    }));
    const r = await call(t.app, 'POST', `/api/admin/data/${project}/old/save`, { token: owner, body: rows });
    expect(r.error, r.raw).toBe(0);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function fieldIndexes(): Promise<string[]> {
    const { db } = t.app.database;
    const meta = await loadMeta(db, project, 'old');
    const r =
      dialect === 'sqlite'
        ? await sql<{
            name: string;
          }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ${meta.table}`.execute(db)
        : await sql<{
            name: string;
          }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = ${meta.table} AND schemaname = current_schema()`.execute(
            db,
          );
    return r.rows.map((x) => x.name).filter((n) => /_c_[0-9a-f]{24}$/.test(n));
  }

  it('gives an old table the number and date indexes it lacks, once, and they serve sorts (EXPLAIN)', async () => {
    const { db } = t.app.database;
    const meta = await loadMeta(db, project, 'old');
    const want = ['amount', 'due'].map((f) => `${meta.table}_${meta.columns[f]!.column}`).sort();
    await t.app.autoIndex.idle();
    expect((await fieldIndexes()).sort()).toEqual(want);
    // An old table: made before number and date fields got their index.
    for (const name of want) await sql`DROP INDEX ${sql.id(name)}`.execute(db);
    expect(await fieldIndexes()).toEqual([]);
    const q = normalizeOrThrow(
      { sort: [{ field: 'amount', order: 'asc' }], page: { index: 1, size: 10 } },
      { now: Date.now(), user: null, fields: meta.queryTypes },
    );
    const c = new QueryCompiler(dialect, meta.columns);
    const stmt = sql`SELECT t._id FROM ${sql.table(meta.table)} t ORDER BY ${c.orderBy(q)} LIMIT 10`;
    const explain = async () => {
      if (dialect === 'sqlite')
        return (await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${stmt}`.execute(db)).rows
          .map((x) => x.detail)
          .join('\n');
      return db.transaction().execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        await sql`SET LOCAL enable_sort = off`.execute(trx);
        return (await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${stmt}`.execute(trx)).rows
          .map((x) => x['QUERY PLAN'])
          .join('\n');
      });
    };
    const amountIx = `${meta.table}_${meta.columns.amount!.column}`;
    expect(await explain()).not.toContain(amountIx);
    expect(await t.app.autoIndex.backfillDefaults()).toBe(2);
    await t.app.autoIndex.idle();
    expect((await fieldIndexes()).sort()).toEqual(want);
    expect(await explain()).toContain(amountIx);
    // Once there, nothing more to do.
    expect(await t.app.autoIndex.backfillDefaults()).toBe(0);
  });
});
