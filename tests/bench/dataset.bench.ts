/**
 * bench:dataset — a dataset show at scale on SQLite and PostgreSQL, against the hand-written SQL of
 * the same question measured in the same run. Not a test: nothing here fails on time.
 *
 * BENCH_ORDERS (default 1,000,000) orders × BENCH_CUSTOMERS (10,000) customers in 10 cities. The
 * dataset joins orders to customers, keeps one city, groups by month (Beijing time) with the sum of
 * the amounts and the count. The show goes through HTTP (app.inject: access, plan, one statement).
 * The generated SQLite file is kept under os.tmpdir() and reused by later runs (BENCH_FRESH=1 builds
 * it again); PostgreSQL data is generated in the server (generate_series) into a kept schema, then
 * VACUUM ANALYZE as autovacuum would do after such inserts.
 *
 * A grouped show by month is made in two steps (by day number, then by month text: compile.ts); the
 * hand-written SQL is the plain one-step GROUP BY a developer would write.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { createSession, createUser } from '../../src/server/account/service.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { fieldColumn } from '../../src/server/data/ddl.ts';
import { createEntity, createField } from '../../src/server/data/schema-service.ts';
import { createDataset, releaseDataset } from '../../src/server/dataset/service.ts';
import { createProject } from '../../src/server/project/service.ts';
import { newId } from '../../src/shared/id.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const CITIES = [
  'Shanghai',
  'Beijing',
  'Shenzhen',
  'Hangzhou',
  'Chengdu',
  'Wuhan',
  'Xian',
  'Nanjing',
  'Suzhou',
  'Tianjin',
];
const T0 = Date.UTC(2023, 0, 1);
const SPAN = 730 * 86_400_000;
const TAG = `v1-${ORDERS}-${CUSTOMERS}`;

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

interface Built {
  project: string;
  orders: string;
  customers: string;
  cols: { amount: string; at: string; customer: string; city: string };
  dataset: string;
  account: string;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

async function build(app: FastifyInstance, dialect: 'sqlite' | 'postgres'): Promise<Built> {
  const { db, dialect: d } = app.database;
  const any = db as unknown as AnyDb;
  const account = `benchds${Date.now().toString(36)}`;
  const owner = await createUser(db, { account, phone: null, nickname: 'B', pwd: 'bench12345' });
  const project = await createProject(db, owner.id, 'Dataset bench');
  const customers = await createEntity(db, project.id, { name: 'Customers', code: 'customers' });
  const city = await createField(db, d, customers, { name: 'City', field: 'city', type: 'string' });
  const name = await createField(db, d, customers, { name: 'Name', field: 'name', type: 'string' });
  const orders = await createEntity(db, project.id, { name: 'Orders', code: 'orders' });
  const amount = await createField(db, d, orders, { name: 'Amount', field: 'amount', type: 'number' });
  const at = await createField(db, d, orders, { name: 'At', field: 'at', type: 'date' });
  const customer = await createField(db, d, orders, {
    name: 'Customer',
    field: 'customer',
    type: 'relate',
    relate: customers.id,
  });
  const cols = {
    amount: fieldColumn(amount.id),
    at: fieldColumn(at.id),
    customer: fieldColumn(customer.id),
    city: fieldColumn(city.id),
  };
  const t0 = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < CUSTOMERS; i += 1000) {
    const batch = Array.from({ length: Math.min(1000, CUSTOMERS - i) }, (_, j) => {
      const id = newId(T0 + i + j);
      ids.push(id);
      return {
        _id: id,
        _created_at: 0,
        _updated_at: 0,
        [cols.city]: CITIES[(i + j) % CITIES.length],
        [fieldColumn(name.id)]: `Customer ${i + j}`,
      };
    });
    await any.insertInto(`e_${customers.id}`).values(batch).execute();
  }
  const table = `e_${orders.id}`;
  if (dialect === 'sqlite') {
    const raw = app.database.sqlite!;
    const stmt = raw.prepare(
      `INSERT INTO "${table}" (_id, _created_at, _updated_at, "${cols.amount}", "${cols.at}", "${cols.customer}") VALUES (?, 0, 0, ?, ?, ?)`,
    );
    const r = rng(7);
    const many = raw.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++)
        stmt.run(
          newId(T0 + i),
          Math.round(r() * 100_000) / 100,
          T0 + Math.floor(r() * SPAN),
          ids[Math.floor(r() * CUSTOMERS)],
        );
    });
    for (let i = 0; i < ORDERS; i += 50_000) many(i, Math.min(ORDERS, i + 50_000));
    raw.exec('ANALYZE');
  } else {
    const arr = sql.lit(`{${ids.join(',')}}`);
    for (let i = 0; i < ORDERS; i += 200_000) {
      const to = Math.min(ORDERS, i + 200_000) - 1;
      await sql`INSERT INTO ${sql.table(table)} (_id, _created_at, _updated_at, ${sql.ref(cols.amount)}, ${sql.ref(cols.at)}, ${sql.ref(cols.customer)})
        SELECT lpad(to_hex(g), 24, '0'), 0, 0, round((random() * 1000)::numeric, 2)::double precision,
          ${sql.lit(T0)} + floor(random() * ${sql.lit(SPAN)})::bigint, (${arr}::text[])[1 + floor(random() * ${sql.lit(CUSTOMERS)})::int]
        FROM generate_series(${sql.lit(i)}, ${sql.lit(to)}) g`.execute(db);
    }
    // What autovacuum does to a table after many inserts: statistics and the visibility map, without
    // which PostgreSQL cannot answer from the covering index alone and scans the whole table.
    await sql`VACUUM ANALYZE ${sql.table(table)}`.execute(db);
    await sql`VACUUM ANALYZE ${sql.table(`e_${customers.id}`)}`.execute(db);
  }
  console.log(
    `  loaded ${ORDERS.toLocaleString()} orders in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const ds = await createDataset(db, project.id, {
    name: 'Sales by month',
    _dataset: {
      base: 'orders',
      joins: [{ as: 'c', from: 't', field: 'customer' }],
      columns: [
        { key: 'month', expr: { fn: 'month', args: [{ ref: 't.at' }] } },
        { key: 'amount', expr: { ref: 't.amount' } },
        { key: 'city', expr: { ref: 'c.city' } },
      ],
      where: [{ field: 'city', type: 'text', opt: 'eq', value: { $param: 'city' } }],
      group: ['month'],
      aggregates: [
        { key: 'total', fn: 'sum', of: 'amount' },
        { key: 'n', fn: 'count' },
      ],
      sort: [{ key: 'month', order: 'asc' }],
      params: [{ name: 'city', type: 'text' }],
    },
  });
  const t1 = performance.now();
  await releaseDataset(db, ds, owner.id);
  console.log(`  released (indexes it needs created) in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  return { project: project.id, orders: orders.id, customers: customers.id, cols, dataset: ds.id, account };
}

async function run(dialect: 'sqlite' | 'postgres'): Promise<void> {
  const fresh = process.env.BENCH_FRESH === '1';
  const dataDir = path.join(os.tmpdir(), `lc-bench-dataset-${TAG}`);
  const marker = path.join(dataDir, `built-${dialect}.json`);
  if (fresh && dialect === 'sqlite') fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_ds_${TAG.replace(/[^a-z0-9]/gi, '_')}`;
  if (fresh && dialect === 'postgres') fs.rmSync(marker, { force: true });
  const app = await buildApp(
    loadConfig(
      {},
      {
        dataDir,
        clientDir: path.join(dataDir, 'none'),
        ...(dialect === 'postgres' ? { databaseUrl: pgUrl, databaseSchema: schema } : {}),
      },
    ),
    { logger: false },
  );
  try {
    console.log(
      `\n== ${dialect}: ${ORDERS.toLocaleString()} orders × ${CUSTOMERS.toLocaleString()} customers`,
    );
    let built: Built;
    if (fs.existsSync(marker)) {
      built = JSON.parse(fs.readFileSync(marker, 'utf8')) as Built;
      console.log('  reusing the generated data');
    } else {
      built = await build(app, dialect);
      fs.writeFileSync(marker, JSON.stringify(built));
    }
    const { db } = app.database;
    {
      // Released again on every run: the service creates what indexes the dataset needs.
      const t1 = performance.now();
      const row = await db
        .selectFrom('flows')
        .selectAll()
        .where('id', '=', built.dataset)
        .executeTakeFirstOrThrow();
      await releaseDataset(db, row, null);
      console.log(`  release (indexes ensured) ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    }
    const owner = await db
      .selectFrom('users')
      .select('id')
      .where('account', '=', built.account)
      .executeTakeFirstOrThrow();
    const token = await createSession(db, owner.id);
    const city = 'Hangzhou';
    const show = async () => {
      const res = await app.inject({
        method: 'POST',
        url: `/api/app/ds/${built.project}/${built.dataset}/show`,
        headers: { token, 'content-type': 'application/json' },
        payload: JSON.stringify({ params: { city }, page: { index: 1, size: 100 } }),
      });
      const body = JSON.parse(res.body) as {
        error: number;
        data: { rows: { month: string; total: number; n: number }[] };
      };
      if (body.error !== 0) throw new Error(res.body);
      return body.data.rows;
    };
    const o = sql.table(`e_${built.orders}`);
    const c = sql.table(`e_${built.customers}`);
    const month =
      dialect === 'postgres'
        ? sql`to_char(to_timestamp((o.${sql.ref(built.cols.at)} + 28800000) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM')`
        : sql`strftime('%Y-%m', (o.${sql.ref(built.cols.at)} + 28800000) / 1000.0, 'unixepoch')`;
    const hand = async () => {
      const r = await sql<{
        m: string;
        total: number;
        n: number;
      }>`SELECT ${month} AS m, SUM(o.${sql.ref(built.cols.amount)}) AS total, COUNT(*) AS n
        FROM ${o} o JOIN ${c} c ON c._id = o.${sql.ref(built.cols.customer)}
        WHERE c.${sql.ref(built.cols.city)} = ${city} GROUP BY 1 ORDER BY 1`.execute(db);
      return r.rows;
    };
    // Same answer first.
    const a = await show();
    const b = await hand();
    const same =
      a.length === b.length &&
      a.every(
        (x, i) =>
          x.month === b[i]!.m && x.n === Number(b[i]!.n) && Math.abs(x.total - Number(b[i]!.total)) < 0.01,
      );
    console.log(
      `  ${a.length} months, ${a.reduce((s, x) => s + x.n, 0).toLocaleString()} orders of ${city}; answers agree: ${same}`,
    );
    for (let i = 0; i < 3; i++) {
      await show();
      await hand();
    }
    const ts: number[] = [];
    const th: number[] = [];
    // CPU time of this process: on SQLite the whole query runs here, so this is the work itself,
    // whatever else the machine does; on PostgreSQL it is only our side (HTTP, plan, decoding).
    const cs: number[] = [];
    const ch: number[] = [];
    const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
    const load0 = os.loadavg()[0]!;
    // Interleaved, so both see the same machine load.
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      let c = process.cpuUsage();
      await show();
      ts.push(performance.now() - t);
      cs.push(cpuMs(process.cpuUsage(c)));
      t = performance.now();
      c = process.cpuUsage();
      await hand();
      th.push(performance.now() - t);
      ch.push(cpuMs(process.cpuUsage(c)));
    }
    const p50s = pct(ts, 50);
    const p50h = pct(th, 50);
    const cpuNote = dialect === 'sqlite' ? 'CPU (the query runs in-process)' : 'CPU of our process only';
    console.log(
      `  dataset show (HTTP)   p50 ${p50s.toFixed(1)} ms   p95 ${pct(ts, 95).toFixed(1)} ms   ${cpuNote} p50 ${pct(cs, 50).toFixed(1)} ms`,
    );
    console.log(
      `  hand-written SQL      p50 ${p50h.toFixed(1)} ms   p95 ${pct(th, 95).toFixed(1)} ms   ${cpuNote} p50 ${pct(ch, 50).toFixed(1)} ms`,
    );
    console.log(`  ratio (p50)           ${(p50s / p50h).toFixed(2)}×   (goal: p50 ≤ 150 ms, ratio ≤ 1.2×)`);
    if (dialect === 'sqlite')
      console.log(`  ratio (CPU p50)       ${(pct(cs, 50) / pct(ch, 50)).toFixed(2)}×`);
    console.log(
      `  load average (1 min) ${load0.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end; cores ${os.cpus().length}`,
    );
  } finally {
    await app.close();
  }
}

const only = process.env.BENCH_DIALECT;
if (!only || only === 'sqlite') await run('sqlite');
if (!only || only === 'postgres') await run('postgres');
