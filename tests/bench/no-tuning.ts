import os from 'node:os';
import { type Kysely, sql } from 'kysely';
import { createUser } from '../../src/server/account/service.ts';
import { fieldColumn } from '../../src/server/data/ddl.ts';
import { type EntityMeta, loadMeta } from '../../src/server/data/meta.ts';
import { queryRecords, saveRecord, summarizeRecords } from '../../src/server/data/records.ts';
import { rollupShape, rollupStatements } from '../../src/server/data/rollup.ts';
import { createEntity, createField } from '../../src/server/data/schema-service.ts';
import { gateOf } from '../../src/server/db/sqlite-gate.ts';
import { createProject } from '../../src/server/project/service.ts';
import { newId } from '../../src/shared/id.ts';
import { normalizeOrThrow, normalizeSummaryOrThrow } from '../../src/shared/query/index.ts';
import { benchServer } from './server-kit.ts';

const ROWS = Number(process.env.NT_ROWS ?? 200_000);
const RUNS = Number(process.env.NT_RUNS ?? 30);
const INSERT_ROWS = Number(process.env.NT_INSERT_ROWS ?? 20_000);
const LOAD_MS = Number(process.env.NT_LOAD_MS ?? 8000);
type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const fmt = (n: number) => n.toFixed(2).padStart(9);
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

export const FIELDS: Array<[string, 'string' | 'number' | 'date' | 'boolean']> = [
  ['title', 'string'],
  ['customer', 'string'],
  ['status', 'string'],
  ['region', 'string'],
  ['amount', 'number'],
  ['qty', 'number'],
  ['created', 'date'],
  ['due', 'date'],
  ['note', 'string'],
  ['flag', 'boolean'],
  ['score', 'number'],
  ['code', 'string'],
];
const STATUS = ['new', 'paid', 'shipped', 'done', 'cancelled'];
const REGION = ['north', 'south', 'east', 'west', 'central', 'northeast', 'northwest', 'southwest'];
const T0 = Date.UTC(2024, 0, 1);

export async function load(
  app: Awaited<ReturnType<typeof benchServer>>['app'],
  meta: EntityMeta,
  n: number,
  seed: number,
) {
  const { db, dialect } = app.database;
  const col = (c: string) => fieldColumn(meta.byCode.get(c)!.id);
  const r = rng(seed);
  const row = (i: number) => ({
    _id: newId(T0 + i),
    _created_at: T0 + i,
    _updated_at: T0 + i,
    [col('title')]: `Order ${i} ${Math.floor(r() * 1e6).toString(36)}`,
    [col('customer')]: `Customer ${Math.floor(r() * 5000)}`,
    [col('status')]: STATUS[Math.floor(r() * 5)],
    [col('region')]: REGION[Math.floor(r() * 8)],
    [col('amount')]: Math.round(r() * 100_000) / 100,
    [col('qty')]: Math.floor(r() * 50),
    [col('created')]: T0 + Math.floor(r() * 700 * 86_400_000),
    [col('due')]: T0 + Math.floor(r() * 700) * 86_400_000,
    [col('note')]: r() < 0.3 ? null : `note ${Math.floor(r() * 1000)}`,
    [col('flag')]: r() < 0.5 ? 1 : 0,
    [col('score')]: r() * 10,
    [col('code')]: `C${Math.floor(r() * 1e8)}`,
  });
  const started = performance.now();
  const batch = dialect === 'sqlite' ? 500 : 1000;
  for (let i = 0; i < n; i += batch) {
    const rows = Array.from({ length: Math.min(batch, n - i) }, (_, j) => row(i + j));
    if (dialect === 'sqlite') {
      const raw = app.database.sqlite!;
      const cols = Object.keys(rows[0]!);
      const stmt = raw.prepare(
        `INSERT INTO "${meta.table}" (${cols.map((c) => `"${c}"`).join(',')}) VALUES ${`(${cols.map(() => '?').join(',')}),`.repeat(rows.length).slice(0, -1)}`,
      );
      stmt.run(...rows.flatMap((x) => cols.map((c) => x[c])));
    } else await (db as unknown as AnyDb).insertInto(meta.table).values(rows).execute();
  }
  return performance.now() - started;
}

export async function noTuning(dialect: 'sqlite' | 'postgres'): Promise<void> {
  const { app, remove } = await benchServer(dialect, 'nt');
  // Booted now, on an empty database (booting first at close() can outlast the plugin timeout).
  await app.ready();
  const { db, dialect: d } = app.database;
  console.log(
    `\n== no-tuning on ${dialect}: ${ROWS.toLocaleString()} rows × 12 fields, no hand-made index (load ${os.loadavg()[0]!.toFixed(1)})`,
  );
  const owner = await createUser(db, { account: 'benchnt1', phone: null, nickname: 'B', pwd: 'bench12345' });
  const project = await createProject(db, owner.id, 'NoTuning');
  const tables: EntityMeta[] = [];
  for (const code of ['orders', 'oldidx', 'newidx', 'rolled']) {
    const e = await createEntity(db, project.id, { name: code, code });
    for (const [f, type] of FIELDS) await createField(db, d, e, { name: f, field: f, type });
    tables.push(await loadMeta(db, project.id, code));
  }
  const [meta, oldIdx, newIdx, rolled] = tables as [EntityMeta, EntityMeta, EntityMeta, EntityMeta];
  const ctx0 = { now: Date.now(), user: null, fields: meta.queryTypes };
  const spec = normalizeSummaryOrThrow(
    { group: ['region'], metrics: [{ fn: 'count' }, { fn: 'sum', field: 'amount' }] },
    meta.queryTypes,
  );
  const all = normalizeOrThrow({}, ctx0);

  // Insert throughput: today's defaults vs the former one index per field (made here by hand).
  for (const f of oldIdx.fields) {
    const c = fieldColumn(f.id);
    await sql
      .raw(`CREATE INDEX IF NOT EXISTS "${oldIdx.table}_${c}" ON "${oldIdx.table}" ("${c}")`)
      .execute(db);
  }
  const oldMs = await load(app, oldIdx, INSERT_ROWS, 7);
  const newMs = await load(app, newIdx, INSERT_ROWS, 7);
  console.log(
    `insert ${INSERT_ROWS.toLocaleString()} rows: one index per field ${fmt((INSERT_ROWS / oldMs) * 1000)} rows/s, ` +
      `today's defaults ${fmt((INSERT_ROWS / newMs) * 1000)} rows/s → ${(oldMs / newMs).toFixed(2)}× as fast`,
  );
  // A rollup's cost on writes (SQLite: rollup.ts): the same batched inserts into a table with one
  // (grouped count + sum by region), alternating with the defaults' table; then single saves.
  {
    await app.autoIndex.rollups.build(rolled, rollupShape(rolled, all, spec)!, 0);
    const plainMs = [newMs];
    const rolledMs: number[] = [];
    rolledMs.push(await load(app, rolled, INSERT_ROWS, 7));
    plainMs.push(await load(app, newIdx, INSERT_ROWS, 8));
    rolledMs.push(await load(app, rolled, INSERT_ROWS, 8));
    const rate = (ms: number) => ((INSERT_ROWS / ms) * 1000).toFixed(0);
    console.log(
      `insert ${INSERT_ROWS.toLocaleString()} rows (batches of ${d === 'sqlite' ? 500 : 1000}), defaults vs defaults + a rollup, alternating: ` +
        `${plainMs.map(rate).join(' / ')} vs ${rolledMs.map(rate).join(' / ')} rows/s → ` +
        `${plainMs.map((p, i) => (p / rolledMs[i]!).toFixed(2)).join(' / ')}× the throughput`,
    );
    const saves = (m: EntityMeta) => async () => {
      const xs: number[] = [];
      for (let i = 0; i < 300; i++) {
        const s0 = performance.now();
        await saveRecord(db, m, { title: 'w', status: 'new', region: REGION[i % 8], amount: i / 7 });
        xs.push(performance.now() - s0);
      }
      return pct(xs, 50);
    };
    const sp: number[] = [];
    const sr: number[] = [];
    for (let k = 0; k < 2; k++) {
      sp.push(await saves(newIdx)());
      sr.push(await saves(rolled)());
    }
    console.log(
      `single save p50, defaults vs defaults + a rollup, alternating: ${sp.map((x) => x.toFixed(3)).join(' / ')} vs ` +
        `${sr.map((x) => x.toFixed(3)).join(' / ')} ms  (load ${os.loadavg()[0]!.toFixed(1)})`,
    );
  }

  const loadMs = await load(app, meta, ROWS, 42);
  if (d === 'postgres') await sql.raw(`ANALYZE "${meta.table}"`).execute(db);
  console.log(`loaded in ${(loadMs / 1000).toFixed(1)} s`);
  const ctx = ctx0;
  const ai = app.autoIndex;
  // The covering index's figures first (the scan's): no rollup until they are taken.
  ai.options.rollups = false;
  const time = async (fn: () => Promise<unknown>) => {
    const s = performance.now();
    await fn();
    return performance.now() - s;
  };
  const p50Of = async (n: number, fn: () => Promise<unknown>) => {
    const xs: number[] = [];
    for (let i = 0; i < n; i++) xs.push(await time(fn));
    return pct(xs, 50);
  };
  const page = normalizeOrThrow(
    {
      query: {
        $and: [
          { field: 'status', type: 'text', opt: 'eq', value: 'paid' },
          { field: 'amount', type: 'number', opt: 'gt', value: 100 },
        ],
      },
      sort: [{ field: 'created', order: 'desc' }],
      page: { index: 6, size: 20 },
    },
    ctx,
  );
  const contains = normalizeOrThrow(
    {
      query: { $and: [{ field: 'title', type: 'text', opt: 'contain', value: 'Order 1' }] },
      sort: [{ field: 'amount', order: 'asc' }],
      page: { index: 1, size: 20 },
    },
    ctx,
  );
  const wide = normalizeOrThrow({ page: { index: 1, size: 100 } }, ctx);
  const write = () => saveRecord(db, meta, { title: 'w', status: 'new', region: 'north', amount: 1 });
  const summaryCold = async () => {
    await write();
    return time(() => summarizeRecords(db, d, meta, all, spec));
  };

  // Baseline: a plain full scan of the table.
  const noteCol = sql.ref(`t.${fieldColumn(meta.byCode.get('note')!.id)}`);
  const scan = await p50Of(5, () =>
    sql`SELECT count(*) FROM ${sql.table(meta.table)} t WHERE ${noteCol} = 'none'`.execute(db),
  );
  console.log(`baseline: plain full scan                 p50 ${fmt(scan)} ms`);
  // Contains + sort the first time: before any shape was recorded (no managed index yet).
  ai.options.enabled = false;
  const containsFirst = await time(() => queryRecords(db, d, meta, contains));
  ai.options.enabled = true;
  console.log(
    `contains + sort, 20 rows: first call        ${fmt(containsFirst)} ms  (${(containsFirst / scan).toFixed(3)}× the plain scan)`,
  );

  // First-time cost: the indexer off (nothing recorded), then on and recurring.
  if (process.env.NT_DEBUG) console.log('first-time runs');
  ai.options.enabled = false;
  const first = await p50Of(5, () => queryRecords(db, d, meta, page));
  const coldSum: number[] = [];
  for (let i = 0; i < 5; i++) coldSum.push(await summaryCold());
  ai.options.enabled = true;
  for (let i = 0; i < ai.options.recur; i++) {
    await queryRecords(db, d, meta, page);
    await summaryCold();
  }
  // Index builds under a concurrent load. Phase A: reads and writes (an operation every ~5 ms, a
  // steady load, not a saturating one) until the builds are done or NT_LOAD_MS passed: on SQLite each
  // write stops a running build (auto-index.ts), so writes never wait for one. Phase B: reads only
  // until every build is done (on SQLite the builds run to the end here, after `quietMs`).
  const gate = app.database.sqlite ? gateOf(app.database.sqlite) : null;
  const preempted0 = gate?.preempted ?? 0;
  let builtAll = false;
  const buildStart = performance.now();
  const idle = ai.idle().then(() => {
    builtAll = true;
  });
  const latW: number[] = [];
  const latR: number[] = [];
  while (!builtAll && performance.now() - buildStart < LOAD_MS) {
    latR.push(await time(() => queryRecords(db, d, meta, wide)));
    latW.push(await time(write));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const phaseA = performance.now() - buildStart;
  const latB: number[] = [];
  while (!builtAll) {
    latB.push(await time(() => queryRecords(db, d, meta, wide)));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await idle;
  const buildMs = performance.now() - buildStart;
  const recurred = await p50Of(RUNS, () => queryRecords(db, d, meta, page));
  const coldIdx: number[] = [];
  for (let i = 0; i < 5; i++) coldIdx.push(await summaryCold());
  const repeated = await p50Of(RUNS, () => summarizeRecords(db, d, meta, all, spec));
  const containsP50 = await p50Of(RUNS, () => queryRecords(db, d, meta, contains));
  const wideP50 = await p50Of(RUNS, () => queryRecords(db, d, meta, wide));
  // Rollups on: the same shape recurring builds one; then cold summaries read it.
  ai.options.rollups = true;
  let rollupBuildMs = 0;
  let lockHeld = '';
  if (d === 'sqlite') {
    // The write lock a fill holds (the whole transaction, in-process, rolled back), with the
    // covering index present and without it (NOT INDEXED): the child's build holds it as long.
    const raw = app.database.sqlite!;
    const shape = rollupShape(meta, all, spec)!;
    const fill = async (notIndexed: boolean) => {
      const stmts = rollupStatements('rx_bench_fill', meta.table, shape).map((x) =>
        notIndexed
          ? x.replace(`FROM "${meta.table}" GROUP BY`, `FROM "${meta.table}" NOT INDEXED GROUP BY`)
          : x,
      );
      return gateOf(raw).exclusive(async () => {
        const s0 = performance.now();
        raw.exec('BEGIN IMMEDIATE');
        try {
          for (const x of stmts) raw.exec(x);
          return performance.now() - s0;
        } finally {
          raw.exec('ROLLBACK');
        }
      });
    };
    const withIdx: number[] = [];
    const without: number[] = [];
    for (let k = 0; k < 2; k++) {
      withIdx.push(await fill(false));
      without.push(await fill(true));
    }
    lockHeld = `rollup fill holds the write lock: with the covering index ${withIdx.map((x) => x.toFixed(0)).join(' / ')} ms, without ${without.map((x) => x.toFixed(0)).join(' / ')} ms (alternating)`;
    for (let i = 0; i < ai.options.recur; i++) await summaryCold();
    const r0 = performance.now();
    await ai.idle();
    rollupBuildMs = performance.now() - r0;
  } else {
    // PostgreSQL builds beside the writes (rollup-pg.ts): how long do writes wait meanwhile? Two
    // writers and a reader of wide pages run until it is done (as while the indexes were built).
    for (let i = 0; i < ai.options.recur; i++) await summaryCold();
    const r0 = performance.now();
    let done = false;
    const building = ai.idle().then(() => {
      done = true;
    });
    const wl: number[] = [];
    const sl: number[] = [];
    const loop = async (xs: number[], fn: () => Promise<unknown>) => {
      while (!done) {
        xs.push(await time(fn));
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    };
    await Promise.all([
      loop(wl, write),
      loop(wl, write),
      loop(sl, () => queryRecords(db, d, meta, wide)),
      building,
    ]);
    rollupBuildMs = performance.now() - r0;
    const st = (xs: number[]) =>
      `${xs.length} ops, p50 ${pct(xs, 50).toFixed(2)} ms, p99 ${pct(xs, 99).toFixed(2)} ms, max ${Math.max(0, ...xs).toFixed(2)} ms`;
    const lb = ai.rollups.lastBuild;
    lockHeld =
      `while the rollup was built: writes ${st(wl)}; reads ${st(sl)}  (load ${os.loadavg()[0]!.toFixed(1)})` +
      (lb
        ? `\n  its brief lock: ${lb.lockTries} tr${lb.lockTries === 1 ? 'y' : 'ies'}, the transaction that got it ${lb.lockMs.toFixed(1)} ms; fill ${lb.fillMs.toFixed(0)} ms (no lock writers wait on)`
        : '');
  }
  const coldRollup: number[] = [];
  for (let i = 0; i < 9; i++) coldRollup.push(await summaryCold());
  const rolledUp = await db
    .selectFrom('data_rollups')
    .select(['build_ms'])
    .where('entity_id', '=', meta.entity.id)
    .execute();
  const built = await db
    .selectFrom('data_indexes')
    .selectAll()
    .where('entity_id', '=', meta.entity.id)
    .execute();

  console.log(
    `eq + range + sort page: first time       p50 ${fmt(first)} ms  (${(first / scan).toFixed(2)}× the plain scan)`,
  );
  console.log(
    `eq + range + sort page: recurred         p50 ${fmt(recurred)} ms  → ${(first / recurred).toFixed(1)}× faster than first time`,
  );
  console.log(
    `grouped count + sum: cold, no index      p50 ${fmt(pct(coldSum, 50))} ms  (${(pct(coldSum, 50) / scan).toFixed(2)}× the plain scan)`,
  );
  console.log(
    `grouped count + sum: cold, covering idx  p50 ${fmt(pct(coldIdx, 50))} ms  → ${(pct(coldSum, 50) / pct(coldIdx, 50)).toFixed(1)}× faster`,
  );
  console.log(
    `grouped count + sum: cold, rollup        p50 ${fmt(pct(coldRollup, 50))} ms  → ${(pct(coldIdx, 50) / pct(coldRollup, 50)).toFixed(1)}× faster than the covering index` +
      (rolledUp.length
        ? `  (rollup built: ${d === 'sqlite' ? 'child run' : 'fill'} ${rolledUp[0]!.build_ms} ms, due → done ${rollupBuildMs.toFixed(0)} ms)`
        : '  (no rollup on this database: the scan)'),
  );
  if (lockHeld) console.log(`  ${lockHeld}`);
  console.log(
    `grouped count + sum: repeated (cache)    p50 ${fmt(repeated)} ms  → ${(pct(coldSum, 50) / repeated).toFixed(0)}× faster than cold`,
  );
  console.log(`contains + sort, 20 rows                 p50 ${fmt(containsP50)} ms`);
  console.log(`wide page, 100 rows × all fields         p50 ${fmt(wideP50)} ms`);
  const stats = (xs: number[]) =>
    `${xs.length} ops, p50 ${pct(xs, 50).toFixed(2)} ms, p99 ${pct(xs, 99).toFixed(2)} ms, max ${Math.max(0, ...xs).toFixed(2)} ms`;
  console.log(
    `index builds: ${built.length} built, all done ${(buildMs / 1000).toFixed(2)} s after they were due (${built.map((b) => `${b.kind} ${b.build_ms} ms`).join(', ')})`,
  );
  console.log(
    `  while due, reads+writes for ${(phaseA / 1000).toFixed(1)} s: writes ${stats(latW)}; reads ${stats(latR)}` +
      (gate ? `; builds stopped by a write: ${gate.preempted - preempted0}` : ''),
  );
  if (process.env.NT_DEBUG) console.log('  shapes not indexed:', JSON.stringify(ai.shapesOf(meta.table)));
  console.log(`  then reads only while building: ${stats(latB)}  (load ${os.loadavg()[0]!.toFixed(1)})`);
  await app.close();
  await remove();
}
