import os from 'node:os';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { type Kysely, sql } from 'kysely';
import { createSession, createUser } from '../../src/server/account/service.ts';
import { fieldColumn } from '../../src/server/data/ddl.ts';
import { loadMeta } from '../../src/server/data/meta.ts';
import { rollupShape } from '../../src/server/data/rollup.ts';
import { createEntity, createField } from '../../src/server/data/schema-service.ts';
import { createProject } from '../../src/server/project/service.ts';
import { newId } from '../../src/shared/id.ts';
import { normalizeOrThrow, normalizeSummaryOrThrow } from '../../src/shared/query/index.ts';
import { benchServer } from './server-kit.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
/** Rounds of the three imports (BENCH_IMPORT_ROUNDS), medians reported. */
const ROUNDS = Number(process.env.BENCH_IMPORT_ROUNDS ?? 3);
const CUSTOMERS = 1000;
const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);
type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

const SPEC: [string, 'string' | 'number' | 'date' | 'relate'][] = [
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

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

async function file(rows: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new PassThrough();
  sink.on('data', (c: Buffer) => chunks.push(c));
  const wbw = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: sink,
    useStyles: true,
    useSharedStrings: false,
  });
  const ws = wbw.addWorksheet('Rows');
  ws.addRow(SPEC.map(([code]) => code)).commit();
  const r = rng(7);
  for (let i = 0; i < rows; i++) {
    ws.addRow([
      `Imported ${i}`,
      'Shanghai',
      'new',
      i % 3 ? `note ${i}` : null,
      Math.round(r() * 100_000) / 100,
      Math.floor(r() * 50),
      r() * 10,
      new Date(T0 + Math.floor(r() * 700) * DAY),
      new Date(T0 + Math.floor(r() * 700) * DAY),
      new Date(T0 + Math.floor(r() * 700) * DAY),
      `Customer ${Math.floor(r() * CUSTOMERS)}`,
      `Customer ${Math.floor(r() * CUSTOMERS)}`,
    ]).commit();
  }
  ws.commit();
  await wbw.commit();
  return Buffer.concat(chunks);
}

export async function importIndexes(dialect: 'sqlite' | 'postgres'): Promise<void> {
  const { app, remove } = await benchServer(dialect, 'imp');
  await app.ready();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const { db, dialect: d } = app.database;
  console.log(
    `\n== import with and without per-field indexes on ${dialect}: ${ROWS.toLocaleString()} rows × 12 fields`,
  );
  const owner = await createUser(db, { account: 'benchimp1', phone: null, nickname: 'B', pwd: 'bench12345' });
  const token = await createSession(db, owner.id);
  const project = await createProject(db, owner.id, 'Import');
  const customer = await createEntity(db, project.id, { name: 'Customer', code: 'customer' });
  await createField(db, d, customer, { name: 'Name', field: 'name', type: 'string' });
  const cust = await loadMeta(db, project.id, 'customer');
  const nameCol = fieldColumn(cust.byCode.get('name')!.id);
  const people = Array.from({ length: CUSTOMERS }, (_, i) => ({
    _id: newId(T0 + i),
    _created_at: T0,
    _updated_at: T0,
    [nameCol]: `Customer ${i}`,
  }));
  for (let i = 0; i < people.length; i += 200)
    await (db as unknown as AnyDb)
      .insertInto(cust.table)
      .values(people.slice(i, i + 200))
      .execute();

  // rollup (SQLite): today's defaults plus a rollup (grouped count + sum kept by triggers: data/rollup.ts).
  type Variant = 'none' | 'defaults' | 'each' | 'rollup';
  // Fresh tables for each variant and round: every import goes into an empty table.
  let made = 0;
  const table = async (variant: Variant): Promise<string> => {
    const code = `imp_${variant}_${made++}`;
    const e = await createEntity(db, project.id, { name: code, code });
    for (const [f, type] of SPEC)
      await createField(db, d, e, {
        name: f,
        field: f,
        type,
        ...(type === 'relate' ? { relate: cust.entity.id } : {}),
      });
    const meta = await loadMeta(db, project.id, code);
    for (const f of meta.fields) {
      const c = fieldColumn(f.id);
      const name = `${meta.table}_${c}`;
      if (variant === 'none') await sql.raw(`DROP INDEX IF EXISTS "${name}"`).execute(db);
      if (variant === 'each')
        await sql.raw(`CREATE INDEX IF NOT EXISTS "${name}" ON "${meta.table}" ("${c}")`).execute(db);
    }
    if (variant === 'rollup') {
      const spec = normalizeSummaryOrThrow(
        { group: ['status'], metrics: [{ fn: 'count' }, { fn: 'sum', field: 'amount' }] },
        meta.queryTypes,
      );
      const all = normalizeOrThrow({}, { now: Date.now(), user: null, fields: meta.queryTypes });
      await app.autoIndex.rollups.build(meta, rollupShape(meta, all, spec)!, 0);
    }
    return code;
  };
  const buf = await file(ROWS);
  // A warm-up import of 2,000 rows first (caches, JIT); then ROUNDS rounds, each variant once per round
  // in a rotated order, so a load that drifts during the run weighs on every variant alike.
  const imp = async (code: string, body: Buffer) => {
    const s = performance.now();
    const res = await fetch(`${base}/api/app/d/${project.id}/${code}/import`, {
      method: 'POST',
      headers: { token, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(body),
    });
    const out = (await res.json()) as { error: number; msg?: string; data?: { inserted: number } };
    if (out.error !== 0) throw new Error(JSON.stringify(out).slice(0, 300));
    return { ms: performance.now() - s, n: out.data!.inserted };
  };
  const warm = await createEntity(db, project.id, { name: 'warm', code: 'warm' });
  for (const [f, type] of SPEC)
    await createField(db, d, warm, {
      name: f,
      field: f,
      type,
      ...(type === 'relate' ? { relate: cust.entity.id } : {}),
    });
  await imp('warm', await file(2000));
  const label: Record<Variant, string> = {
    none: 'no per-field index            ',
    defaults: "today's defaults (num/date/rel)",
    each: 'one index per field (before)  ',
    rollup: 'defaults + a rollup (triggers) ',
  };
  // BENCH_IMPORT_VARIANTS (e.g. `defaults,rollup`): only these, alternating.
  const order = (
    process.env.BENCH_IMPORT_VARIANTS?.split(',') ?? ['none', 'defaults', 'each', 'rollup']
  ).filter((v): v is Variant => ['none', 'defaults', 'each', 'rollup'].includes(v));
  const rates: Record<Variant, number[]> = { none: [], defaults: [], each: [], rollup: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < order.length; k++) {
      const variant = order[(k + round) % order.length]!;
      const r = await imp(await table(variant), buf);
      rates[variant].push((r.n / r.ms) * 1000);
      console.log(
        `round ${round + 1}: import ${r.n.toLocaleString()} rows, ${label[variant]} ${(r.ms / 1000).toFixed(2).padStart(7)} s  ${rates[variant].at(-1)!.toFixed(0).padStart(7)} rows/s  (load ${os.loadavg()[0]!.toFixed(1)})`,
      );
    }
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rate = { none: med(rates.none), defaults: med(rates.defaults), each: med(rates.each) };
  for (const v of order)
    console.log(`median of ${ROUNDS}: ${label[v]} ${med(rates[v]).toFixed(0).padStart(7)} rows/s`);
  const slower = (1 - rate.defaults / rate.each) * 100;
  if (rates.each.length && rates.none.length)
    console.log(
      `today's defaults vs one index per field: ${(rate.defaults / rate.each).toFixed(2)}× the throughput (${slower > 0 ? `${slower.toFixed(1)} % slower` : `${(-slower).toFixed(1)} % faster`}; goal: at most 10 % slower); ` +
        `vs no per-field index: ${(rate.defaults / rate.none).toFixed(2)}×; per round: ${rates.defaults.map((x, i) => (x / rates.each[i]!).toFixed(2)).join(', ')}`,
    );
  if (rates.rollup.length)
    console.log(
      `a rollup's cost on import: ${(med(rates.rollup) / rate.defaults).toFixed(2)}× the throughput of today's defaults; per round: ${rates.rollup.map((x, i) => (x / rates.defaults[i]!).toFixed(2)).join(', ')}`,
    );
  await app.close();
  await remove();
}
