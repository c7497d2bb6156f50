import { sql } from 'kysely';
import { createUser } from '../../src/server/account/service.ts';
import { fieldColumn } from '../../src/server/data/ddl.ts';
import { loadMeta } from '../../src/server/data/meta.ts';
import { summarizeRecords } from '../../src/server/data/records.ts';
import { createEntity, createField } from '../../src/server/data/schema-service.ts';
import { wroteTables } from '../../src/server/data/write-clock.ts';
import { createProject } from '../../src/server/project/service.ts';
import { normalizeOrThrow, normalizeSummaryOrThrow } from '../../src/shared/query/index.ts';
import { FIELDS, load } from './no-tuning.ts';
import { benchServer } from './server-kit.ts';

const dialect = (process.argv[2] ?? 'sqlite') as 'sqlite' | 'postgres';
const ROWS = Number(process.env.NT_ROWS ?? 200_000);
const { app, remove } = await benchServer(dialect, 'sp');
await app.ready();
const { db, dialect: d } = app.database;
const owner = await createUser(db, { account: 'benchsp1', phone: null, nickname: 'B', pwd: 'bench12345' });
const project = await createProject(db, owner.id, 'SummaryPlan');
const e = await createEntity(db, project.id, { name: 'orders', code: 'orders' });
for (const [f, type] of FIELDS) await createField(db, d, e, { name: f, field: f, type });
const meta = await loadMeta(db, project.id, 'orders');
await load(app, meta, ROWS, 42);
if (d === 'postgres') await sql.raw(`ANALYZE "${meta.table}"`).execute(db);
const ctx = { now: Date.now(), user: null, fields: meta.queryTypes };
const all = normalizeOrThrow({}, ctx);
const spec = normalizeSummaryOrThrow(
  { group: ['region'], metrics: [{ fn: 'count' }, { fn: 'sum', field: 'amount' }] },
  meta.queryTypes,
);
// The statement computeSummary runs, captured from the database's own log of it.
const captured: string[] = [];
const raw = app.database.sqlite;
if (raw) {
  const prep = raw.prepare.bind(raw);
  raw.prepare = ((s: string) => {
    if (s.includes('GROUP BY')) captured.push(s);
    return prep(s);
  }) as typeof raw.prepare;
}
const time = async (fn: () => Promise<unknown>) => {
  const s = performance.now();
  await fn();
  return performance.now() - s;
};
const explain = async (stmt: string) => {
  if (d === 'sqlite')
    return (await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${sql.raw(stmt)}`.execute(db)).rows
      .map((r) => r.detail)
      .join(' | ');
  return (await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${sql.raw(stmt)}`.execute(db)).rows
    .map((r) => r['QUERY PLAN'])
    .join('\n');
};
app.autoIndex.options.enabled = false;
const region = fieldColumn(meta.byCode.get('region')!.id);
const amount = fieldColumn(meta.byCode.get('amount')!.id);
const note = fieldColumn(meta.byCode.get('note')!.id);
const scanSql = `SELECT count(*) FROM "${meta.table}" t WHERE t."${note}" = 'none'`;
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const round = async (label: string) => {
  const s: number[] = [];
  const q: number[] = [];
  for (let i = 0; i < 5; i++) {
    s.push(await time(() => sql.raw(scanSql).execute(db)));
    // A write's clock move: the summary cache misses (cold).
    wroteTables([meta.table]);
    q.push(await time(() => summarizeRecords(db, d, meta, all, spec)));
  }
  console.log(
    `${label}: plain scan p50 ${p50(s).toFixed(1)} ms, grouped count+sum p50 ${p50(q).toFixed(1)} ms (${(p50(q) / p50(s)).toFixed(2)}× the scan)`,
  );
};
console.log(
  `== ${dialect}, ${ROWS} rows; ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
await round('no covering index');
// On PostgreSQL the same statement as computeSummary builds it (records.ts).
const stmt =
  captured[0] ??
  `SELECT "t"."${region}" AS "k0", count(*) AS "m0_n", sum("t"."${amount}") AS "m1_sum", count("t"."${amount}") AS "m1_cnt" FROM "${meta.table}" t WHERE 1 = 1 GROUP BY "t"."${region}"`;
console.log('statement:', stmt);
console.log('plan:', await explain(stmt));
const ix = `sp_cover`;
const t0 = performance.now();
await sql.raw(`CREATE INDEX "${ix}" ON "${meta.table}" ("${region}", "${amount}")`).execute(db);
console.log(`covering index built in ${(performance.now() - t0).toFixed(0)} ms`);
if (d === 'sqlite') await sql.raw(`ANALYZE "${meta.table}"`).execute(db);
else await sql.raw(`ANALYZE "${meta.table}"`).execute(db);
console.log('plan:', await explain(stmt));
await round('covering index');
if (d === 'postgres') {
  const v0 = performance.now();
  await sql.raw(`VACUUM (ANALYZE) "${meta.table}"`).execute(db);
  console.log(`VACUUM (ANALYZE) in ${(performance.now() - v0).toFixed(0)} ms`);
  console.log('plan:', await explain(stmt));
  await round('covering index, vacuumed');
}
console.log(
  `load ${(await import('node:os'))
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
await app.close();
await remove();
