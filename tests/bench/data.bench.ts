import { monitorEventLoopDelay } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { createSession, createUser } from '../../src/server/account/service.ts';
import { fieldColumn } from '../../src/server/data/ddl.ts';
import { loadMeta } from '../../src/server/data/meta.ts';
import { queryRecords, summarizeRecords } from '../../src/server/data/records.ts';
import { createEntity, createField } from '../../src/server/data/schema-service.ts';
import { createProject } from '../../src/server/project/service.ts';
import { newId } from '../../src/shared/id.ts';
import { evaluate, normalizeOrThrow, normalizeSummaryOrThrow } from '../../src/shared/query/index.ts';
import { importIndexes } from './import-indexes.ts';
import { noTuning } from './no-tuning.ts';
import { benchServer } from './server-kit.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const CUSTOMERS = 1000;
const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}
const fmt = (n: number) => n.toFixed(2).padStart(8);

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

async function run(dialect: 'sqlite' | 'postgres'): Promise<void> {
  const { app, remove } = await benchServer(dialect, 'data');
  const { db, dialect: d } = app.database;
  const any = db as unknown as AnyDb;
  console.log(`\n== ${dialect}: ${ROWS.toLocaleString()} rows × 12 fields`);
  const owner = await createUser(db, {
    account: 'benchdata1',
    phone: null,
    nickname: 'B',
    pwd: 'bench12345',
  });
  const token = await createSession(db, owner.id);
  const project = await createProject(db, owner.id, 'Bench');
  const customer = await createEntity(db, project.id, { name: 'Customer', code: 'customer' });
  await createField(db, d, customer, { name: 'Name', field: 'name', type: 'string' });
  const orders = await createEntity(db, project.id, { name: 'Order', code: 'orders' });
  const spec: [string, 'string' | 'number' | 'date' | 'relate'][] = [
    ['title', 'string'],
    ['city', 'string'],
    ['status', 'string'],
    ['note', 'string'],
    ['amount', 'number'],
    ['qty', 'number'],
    ['score', 'number'],
    ['ordered', 'date'],
    ['shipped', 'date'],
    ['due', 'date'],
    ['customer', 'relate'],
    ['seller', 'relate'],
  ];
  for (const [code, type] of spec) {
    await createField(db, d, orders, {
      name: code,
      field: code,
      type,
      ...(type === 'relate' ? { relate: customer.id } : {}),
    });
  }
  const cmeta = await loadMeta(db, project.id, 'customer');
  const meta = await loadMeta(db, project.id, 'orders');

  // Load data.
  const t0 = performance.now();
  const customerIds: string[] = [];
  const nameCol = fieldColumn(cmeta.byCode.get('name')!.id);
  for (let i = 0; i < CUSTOMERS; i += 500) {
    const batch = Array.from({ length: 500 }, (_, j) => {
      const id = newId();
      customerIds.push(id);
      return { _id: id, _created_at: 0, _updated_at: 0, [nameCol]: `Customer ${i + j}` };
    });
    await any.insertInto(cmeta.table).values(batch).execute();
  }
  const col = (code: string) => fieldColumn(meta.byCode.get(code)!.id);
  const cities = ['Shanghai', 'Beijing', 'Shenzhen', 'Hangzhou', 'Chengdu', 'Wuhan', 'Xian', 'Nanjing'];
  const statuses = ['new', 'paid', 'shipped', 'done', 'cancelled'];
  const r = rng(42);
  const makeRow = (i: number) => ({
    _id: newId(T0 + i),
    _created_at: T0 + i,
    _updated_at: T0 + i,
    [col('title')]: `Order ${i} ${Math.floor(r() * 1e6).toString(36)}`,
    [col('city')]: cities[Math.floor(r() * cities.length)],
    [col('status')]: statuses[Math.floor(r() * statuses.length)],
    [col('note')]: r() < 0.3 ? null : `note ${Math.floor(r() * 1000)}`,
    [col('amount')]: Math.round(r() * 100_000) / 100,
    [col('qty')]: Math.floor(r() * 50),
    [col('score')]: r() * 10,
    [col('ordered')]: T0 + Math.floor(r() * 700) * DAY + Math.floor(r() * DAY),
    [col('shipped')]: r() < 0.2 ? null : T0 + Math.floor(r() * 700) * DAY,
    [col('due')]: T0 + Math.floor(r() * 700) * DAY,
    [col('customer')]: customerIds[Math.floor(r() * CUSTOMERS)],
    [col('seller')]: customerIds[Math.floor(r() * CUSTOMERS)],
  });
  if (d === 'sqlite') {
    const raw = app.database.sqlite!;
    const first = makeRow(0);
    const keys = Object.keys(first);
    const stmt = raw.prepare(
      `INSERT INTO "${meta.table}" (${keys.map((k) => `"${k}"`).join(',')}) VALUES (${keys.map(() => '?').join(',')})`,
    );
    const insertMany = raw.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) stmt.run(...Object.values(makeRow(i)));
    });
    for (let i = 0; i < ROWS; i += 50_000) insertMany(i, Math.min(ROWS, i + 50_000));
    raw.pragma('optimize');
    raw.exec('ANALYZE');
  } else {
    // Generated in the server (INSERT … SELECT over generate_series, 100,000 rows per statement): the
    // same shapes and spreads as the SQLite rows, without a million rows crossing the wire.
    const t0 = sql.lit(T0);
    const day = sql.lit(DAY);
    const ids = sql.lit(`{${customerIds.join(',')}}`);
    const pick = sql`(${ids}::text[])[1 + floor(random() * ${CUSTOMERS})::int]`;
    for (let i = 0; i < ROWS; i += 100_000) {
      const to = Math.min(ROWS, i + 100_000) - 1;
      await sql`INSERT INTO ${sql.table(meta.table)} (_id, _created_at, _updated_at, ${sql.ref(col('title'))}, ${sql.ref(col('city'))},
        ${sql.ref(col('status'))}, ${sql.ref(col('note'))}, ${sql.ref(col('amount'))}, ${sql.ref(col('qty'))}, ${sql.ref(col('score'))},
        ${sql.ref(col('ordered'))}, ${sql.ref(col('shipped'))}, ${sql.ref(col('due'))}, ${sql.ref(col('customer'))}, ${sql.ref(col('seller'))})
        SELECT lpad(to_hex(${t0} + g), 24, '0'), ${t0} + g, ${t0} + g,
          'Order ' || g || ' ' || floor(random() * 1e6)::int,
          (${sql.lit(`{${cities.join(',')}}`)}::text[])[1 + floor(random() * ${cities.length})::int],
          (${sql.lit(`{${statuses.join(',')}}`)}::text[])[1 + floor(random() * ${statuses.length})::int],
          CASE WHEN random() < 0.3 THEN NULL ELSE 'note ' || floor(random() * 1000)::int END,
          round((random() * 100000)::numeric) / 100, floor(random() * 50), random() * 10,
          ${t0} + floor(random() * 700)::bigint * ${day} + floor(random() * ${day})::bigint,
          CASE WHEN random() < 0.2 THEN NULL ELSE ${t0} + floor(random() * 700)::bigint * ${day} END,
          ${t0} + floor(random() * 700)::bigint * ${day}, ${pick}, ${pick}
        FROM generate_series(${i}::bigint, ${to}::bigint) AS g`.execute(db);
    }
    await sql`ANALYZE`.execute(db);
  }
  console.log(
    `loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s (bench setup, not the import path)`,
  );

  const user = { _id: owner.id };
  const pageQuery = (i: number) => ({
    query: [
      { field: 'customer', type: 'relate', opt: 'set', value: [customerIds[i % CUSTOMERS]] },
      { field: 'amount', type: 'number', opt: 'gte', value: 100 },
    ],
    sort: [{ field: 'ordered', order: 'desc' }],
    page: { index: 1, size: 20 },
  });

  // 1. Query page in process.
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const q = normalizeOrThrow(pageQuery(i), { now: Date.now(), user, fields: meta.queryTypes });
    const s = performance.now();
    const res = await queryRecords(db, d, meta, q);
    times.push(performance.now() - s);
    if (i === 0 && res.data[0] && typeof res.data[0]._customer !== 'string')
      throw new Error('relates not resolved');
  }
  console.log(
    `query page in process     p50 ${fmt(pct(times, 50))} ms   p99 ${fmt(pct(times, 99))} ms   (goal p50 ≤ 20, p99 ≤ 60)`,
  );

  // 2. The same through HTTP.
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const httpTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    const res = await fetch(`${base}/api/admin/data/${project.id}/orders/query`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/json' },
      body: JSON.stringify(pageQuery(i)),
    });
    const json = (await res.json()) as { error: number };
    httpTimes.push(performance.now() - s);
    if (json.error !== 0) throw new Error(JSON.stringify(json));
  }
  const ratio = pct(httpTimes, 50) / pct(times, 50);
  console.log(
    `query page over HTTP      p50 ${fmt(pct(httpTimes, 50))} ms   p99 ${fmt(pct(httpTimes, 99))} ms   (${ratio.toFixed(2)}× in-process; goal ≤ 2×)`,
  );

  // A harder, unindexed filter for honesty: text contain over the whole table.
  const contain: number[] = [];
  for (let i = 0; i < Math.min(RUNS, 20); i++) {
    const q = normalizeOrThrow(
      {
        query: [{ field: 'title', type: 'text', opt: 'contain', value: `${i}7 ` }],
        sort: [{ field: 'ordered', order: 'desc' }],
        page: { index: 1, size: 20 },
      },
      { now: Date.now(), user, fields: meta.queryTypes },
    );
    const s = performance.now();
    await queryRecords(db, d, meta, q);
    contain.push(performance.now() - s);
  }
  console.log(
    `text contain (full scan)  p50 ${fmt(pct(contain, 50))} ms   p99 ${fmt(pct(contain, 99))} ms   (no goal: unindexed by nature)`,
  );

  // 3. 100 rows × 50 fields.
  const wide = await createEntity(db, project.id, { name: 'Wide', code: 'wide' });
  for (let f = 0; f < 50; f++)
    await createField(db, d, wide, {
      name: `f${f}`,
      field: `f${f}`,
      type: f % 3 === 0 ? 'number' : 'string',
    });
  const wmeta = await loadMeta(db, project.id, 'wide');
  const wideRows = Array.from({ length: 1000 }, (_, i) => {
    const row: Record<string, unknown> = { _id: newId(T0 + i), _created_at: i, _updated_at: i };
    for (const f of wmeta.fields)
      row[fieldColumn(f.id)] = f.type === 'number' ? i * 1.5 : `value ${i} ${f.code}`;
    return row;
  });
  for (let i = 0; i < wideRows.length; i += 20)
    await any
      .insertInto(wmeta.table)
      .values(wideRows.slice(i, i + 20))
      .execute();
  const wideTimes: number[] = [];
  for (let i = 0; i < Math.min(RUNS, 50); i++) {
    const q = normalizeOrThrow(
      { page: { index: 1 + (i % 10), size: 100 } },
      { now: Date.now(), user, fields: wmeta.queryTypes },
    );
    const s = performance.now();
    await queryRecords(db, d, wmeta, q);
    wideTimes.push(performance.now() - s);
  }
  console.log(
    `100 rows × 50 fields      p50 ${fmt(pct(wideTimes, 50))} ms   p99 ${fmt(pct(wideTimes, 99))} ms   (goal ≤ 100)`,
  );

  // 4. Grouped summary over the whole table.
  const sspec = normalizeSummaryOrThrow(
    {
      group: ['city'],
      metrics: [{ fn: 'count' }, { fn: 'sum', field: 'amount' }, { fn: 'avg', field: 'qty' }],
    },
    meta.queryTypes,
  );
  const all = normalizeOrThrow({}, { now: Date.now(), user, fields: meta.queryTypes });
  const sumTimes: number[] = [];
  for (let i = 0; i < 3; i++) {
    const s = performance.now();
    await summarizeRecords(db, d, meta, all, sspec);
    sumTimes.push(performance.now() - s);
  }
  console.log(`summary grouped by city   p50 ${fmt(pct(sumTimes, 50))} ms   (goal ≤ 1500)`);

  // Naive baseline: load the whole table into JS and filter there with the reference evaluator.
  const n0 = performance.now();
  const rss0 = process.memoryUsage().rss;
  const loaded = await any.selectFrom(meta.table).selectAll().execute();
  const rows = loaded.map((row) => {
    const rec: Record<string, unknown> = { _id: row._id };
    for (const f of meta.fields) rec[f.code] = row[fieldColumn(f.id)];
    return rec;
  });
  const q0 = normalizeOrThrow(pageQuery(0), { now: Date.now(), user, fields: meta.queryTypes });
  evaluate(rows, q0, meta.queryTypes);
  const naive = performance.now() - n0;
  const grown = (process.memoryUsage().rss - rss0) / 1024 / 1024;
  console.log(
    `naive baseline (load all + JS filter) ${fmt(naive)} ms, RSS +${grown.toFixed(0)} MB   → ours is ${(naive / pct(times, 50)).toFixed(0)}× faster per page`,
  );
  void rows.length;
  loaded.length = 0;
  rows.length = 0;
  await xlsxFigures(app, base, token, project.id, customerIds.length);
  await app.close();
  // The data folder, and on PostgreSQL the bench's schema.
  await remove();
}

const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const MB = 1024 * 1024;

/** A full garbage collection (`npm run bench:data` runs node with --expose-gc). */
function fullGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc (npm run bench:data does)');
  gc();
}

/** Run `work` while watching the event loop (max delay) and the process's memory (peak RSS growth). */
async function watched<T>(
  work: () => Promise<T>,
): Promise<{ value: T; ms: number; loopMaxMs: number; rssMB: number }> {
  // A full collection first: the naive baselines leave hundreds of MB of garbage whose collection
  // would otherwise land inside (and be charged to) the measured import or export.
  fullGc();
  const h = monitorEventLoopDelay({ resolution: 5 });
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  h.enable();
  const s = performance.now();
  const value = await work();
  const ms = performance.now() - s;
  h.disable();
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { value, ms, loopMaxMs: h.max / 1e6, rssMB: (peak - rss0) / MB };
}

/**
 * Import 100,000 rows (12 fields, relate by display name) and export 10,000 rows × 30 fields over
 * HTTP, each beside a naive baseline in the same run: inserting row by row through the save path, and
 * building the whole workbook in memory.
 */
async function xlsxFigures(
  app: FastifyInstance,
  base: string,
  token: string,
  projectId: string,
  customers: number,
) {
  const { db, dialect: d } = app.database;
  const any = db as unknown as AnyDb;
  const project = await db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow();
  const imp = await createEntity(db, project.id, { name: 'Imported', code: 'imported' });
  const cust = await loadMeta(db, project.id, 'customer');
  const spec: [string, 'string' | 'number' | 'date' | 'relate'][] = [
    ['title', 'string'],
    ['city', 'string'],
    ['status', 'string'],
    ['note', 'string'],
    ['amount', 'number'],
    ['qty', 'number'],
    ['score', 'number'],
    ['ordered', 'date'],
    ['shipped', 'date'],
    ['due', 'date'],
    ['customer', 'relate'],
    ['seller', 'relate'],
  ];
  for (const [code, type] of spec) {
    await createField(db, d, imp, {
      name: code,
      field: code,
      type,
      ...(type === 'relate' ? { relate: cust.entity.id } : {}),
    });
  }
  // The file (setup): streamed to a buffer.
  const chunks: Buffer[] = [];
  const { PassThrough } = await import('node:stream');
  const sink = new PassThrough();
  sink.on('data', (c: Buffer) => chunks.push(c));
  const wbw = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: sink,
    useStyles: true,
    useSharedStrings: false,
  });
  const ws = wbw.addWorksheet('Rows');
  ws.addRow(spec.map(([code]) => code)).commit();
  const r = rng(7);
  for (let i = 0; i < IMPORT_ROWS; i++) {
    ws.addRow([
      `Imported ${i}`,
      'Shanghai',
      'new',
      i % 3 ? `note ${i}` : null,
      Math.round(r() * 100_000) / 100,
      Math.floor(r() * 50),
      r() * 10,
      new Date(T0 + Math.floor(r() * 700) * DAY),
      `2024-0${1 + (i % 9)}-1${i % 10}`,
      new Date(T0 + Math.floor(r() * 700) * DAY),
      `Customer ${Math.floor(r() * customers)}`,
      `Customer ${Math.floor(r() * customers)}`,
    ]).commit();
  }
  ws.commit();
  await wbw.commit();
  const file = Buffer.concat(chunks);
  console.log(
    `\nxlsx: import file of ${IMPORT_ROWS.toLocaleString()} rows × 12 fields, ${(file.length / MB).toFixed(1)} MB`,
  );

  const imported = await watched(async () => {
    const res = await fetch(`${base}/api/app/d/${project.id}/imported/import`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/octet-stream' },
      body: file,
    });
    return (await res.json()) as { error: number; msg?: string; data?: { inserted: number } };
  });
  if (imported.value.error !== 0) throw new Error(JSON.stringify(imported.value).slice(0, 500));
  console.log(
    `import ${imported.value.data!.inserted.toLocaleString()} rows over HTTP   ${fmt(imported.ms / 1000)} s   ` +
      `event loop max ${imported.loopMaxMs.toFixed(0)} ms   RSS +${imported.rssMB.toFixed(0)} MB   (goal ≤ 15 s, loop ≤ 100 ms)`,
  );
  // Baseline: the save path row by row (as a client calling save per row would), on a sample.
  const { saveRecord } = await import('../../src/server/data/records.ts');
  const imeta = await loadMeta(db, project.id, 'imported');
  const sample = Math.min(2000, IMPORT_ROWS);
  const cids = (await any.selectFrom(cust.table).select('_id').limit(10).execute()).map((x) => String(x._id));
  const b0 = performance.now();
  for (let i = 0; i < sample; i++) {
    await saveRecord(
      db,
      imeta,
      { title: `Row ${i}`, city: 'Wuhan', amount: i, ordered: T0 + i, customer: cids[i % cids.length] },
      undefined,
    );
  }
  const perRow = (performance.now() - b0) / sample;
  console.log(
    `baseline: row-by-row save ${fmt(perRow)} ms/row → ${((perRow * IMPORT_ROWS) / 1000).toFixed(1)} s for ${IMPORT_ROWS.toLocaleString()} ` +
      `(sampled ${sample}) → import is ${((perRow * IMPORT_ROWS) / imported.ms).toFixed(1)}× faster`,
  );

  // Export 10,000 rows × 30 fields.
  const wide = await createEntity(db, project.id, { name: 'Wide30', code: 'wide30' });
  for (let f = 0; f < 30; f++) {
    await createField(db, d, wide, {
      name: `Field ${f}`,
      field: `f${f}`,
      type: f % 5 === 0 ? 'number' : f % 7 === 0 ? 'date' : 'string',
    });
  }
  const wm = await loadMeta(db, project.id, 'wide30');
  for (let i = 0; i < 10_000; i += 500) {
    await any
      .insertInto(wm.table)
      .values(
        Array.from({ length: 500 }, (_, j) => {
          const row: Record<string, unknown> = {
            _id: newId(T0 + i + j),
            _created_at: i + j,
            _updated_at: i + j,
          };
          for (const f of wm.fields) {
            row[fieldColumn(f.id)] =
              f.type === 'number'
                ? (i + j) * 1.25
                : f.type === 'date'
                  ? T0 + (i + j) * 60_000
                  : `text ${i + j} ${f.code} ${(i * 7919 + j).toString(36)}`;
          }
          return row;
        }),
      )
      .execute();
  }
  const exported = await watched(async () => {
    const res = await fetch(`${base}/api/app/d/${project.id}/wide30/export`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'all' }),
    });
    let bytes = 0;
    for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) bytes += c.length;
    return bytes;
  });
  console.log(
    `export 10,000 × 30 over HTTP (streamed)  ${fmt(exported.ms / 1000)} s   event loop max ${exported.loopMaxMs.toFixed(0)} ms   ` +
      `RSS +${exported.rssMB.toFixed(0)} MB   ${(exported.value / MB).toFixed(1)} MB file   (goal ≤ 3 s, ≤ 150 MB, loop ≤ 100 ms)`,
  );
  // Baseline: all rows loaded at once, the whole workbook built in memory, then written.
  const naive = await watched(async () => {
    const q = normalizeOrThrow({ all: true }, { now: Date.now(), user: null, fields: wm.queryTypes });
    const { data } = await queryRecords(db, d, wm, q);
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Wide');
    sheet.addRow(wm.fields.map((f) => f.name));
    for (const rec of data)
      sheet.addRow(wm.fields.map((f) => (f.type === 'date' ? new Date(Number(rec[f.code])) : rec[f.code])));
    const buf = await wb.xlsx.writeBuffer();
    return buf.byteLength;
  });
  console.log(
    `baseline: in-memory workbook             ${fmt(naive.ms / 1000)} s   event loop max ${naive.loopMaxMs.toFixed(0)} ms   RSS +${naive.rssMB.toFixed(0)} MB` +
      `   → streaming is ${(naive.ms / exported.ms).toFixed(2)}× as fast with ${(naive.rssMB / Math.max(1, exported.rssMB)).toFixed(1)}× less memory`,
  );
}

// BENCH_ONLY=no-tuning or BENCH_ONLY=import runs only that section.
const only = process.env.BENCH_ONLY;
const pgToo = process.env.BENCH_PG === '1' || !!process.env.TEST_DATABASE_URL;
if (process.env.BENCH_SQLITE !== '0' && !only) await run('sqlite');
if (pgToo && !only) await run('postgres');
// Import throughput with and without the default per-field indexes (import-indexes.ts).
if (!only || only === 'import') {
  if (process.env.BENCH_SQLITE !== '0') await importIndexes('sqlite');
  if (pgToo) await importIndexes('postgres');
}
// The no-tuning workload (no-tuning.ts): BENCH_NO_TUNING=0 skips it.
if (process.env.BENCH_NO_TUNING !== '0' && (!only || only === 'no-tuning')) {
  if (process.env.BENCH_SQLITE !== '0') await noTuning('sqlite');
  if (process.env.BENCH_PG === '1' || process.env.TEST_DATABASE_URL) await noTuning('postgres');
}
