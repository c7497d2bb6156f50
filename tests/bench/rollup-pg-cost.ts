/**
 * The CPU a PostgreSQL rollup's triggers add to a write (rollup-pg.ts), read from PostgreSQL's own
 * EXPLAIN ANALYZE (the trigger's time beside the statement's), so a busy machine's waits do not
 * count: 500-row INSERTs (an import's chunk) and one-row INSERTs and UPDATEs, on a 12-column table
 * with a rollup grouping by one text column and summing one number column. Prints medians.
 * Run: npx tsx tests/bench/rollup-pg-cost.ts (TEST_DATABASE_URL or the local server).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { pgCreateStatements } from '../../src/server/data/rollup-pg.ts';
import { postgresUrl } from '../helpers/db.ts';

const url = await postgresUrl();
if (!url) throw new Error('no PostgreSQL');
const schema = `rxcost_${randomBytes(4).toString('hex')}`;
const c = new pg.Client({ connectionString: url });
await c.connect();
await c.query(`CREATE SCHEMA "${schema}"; SET search_path = "${schema}"`);
const T = 'e_aaaaaaaaaaaaaaaaaaaaaaaa';
const R = 'rx_aaaaaaaaaaaaaaaaaaaaaaaa_0123456789';
const cols = [
  'title',
  'customer',
  'status',
  'region',
  'amount',
  'qty',
  'created',
  'due',
  'note',
  'flag',
  'score',
  'code',
];
const types = [
  'text',
  'text',
  'text',
  'text',
  'double precision',
  'double precision',
  'bigint',
  'bigint',
  'text',
  'smallint',
  'double precision',
  'text',
];
await c.query(
  `CREATE TABLE "${T}" (_id varchar(24) PRIMARY KEY, ${cols.map((x, i) => `"c_${x}" ${types[i]}`).join(', ')})`,
);
for (const x of ['amount', 'qty', 'created', 'due', 'score'])
  await c.query(`CREATE INDEX ON "${T}" ("c_${x}" NULLS FIRST)`);
const values = (n: number, base: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `('${(base + i).toString(16).padStart(24, '0')}', 'Order ${base + i}', 'Customer ${i % 5000}', '${['new', 'paid', 'shipped', 'done', 'cancelled'][i % 5]}', '${['north', 'south', 'east', 'west'][i % 4]}', ${((i * 7919) % 100000) / 100}, ${i % 50}, ${1e12 + i}, ${1e12 + i}, 'note', ${i % 2}, ${(i % 1000) / 7}, 'C${i}')`,
  ).join(', ');
let id = 0;
const explain = async (statement: string) => {
  const r = await c.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`);
  const plan = (
    r.rows[0] as {
      'QUERY PLAN': Array<{
        'Execution Time': number;
        Triggers?: Array<{ 'Trigger Name': string; Time: number }>;
      }>;
    }
  )['QUERY PLAN'][0]!;
  const trig = (plan.Triggers ?? [])
    .filter((t) => t['Trigger Name'].startsWith('rx_'))
    .reduce((a, t) => a + t.Time, 0);
  return { total: plan['Execution Time'], trig };
};
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
// Two tables alike, one with a rollup, written alternately (each statement timed by PostgreSQL).
const T2 = 'e_bbbbbbbbbbbbbbbbbbbbbbbb';
await c.query(`CREATE TABLE "${T2}" (LIKE "${T}" INCLUDING ALL)`);
const shape = { key: 'r', keys: ['c_status'], vals: [{ column: 'c_amount', text: false, sum: true }] };
for (const s of pgCreateStatements(R, T2, shape)) await c.query(s);
const on = (sql: string, t: string) => sql.replaceAll(`"${T}"`, `"${t}"`);
const timed = {
  plain: { bulk: [] as number[], one: [] as number[], upd: [] as number[] },
  rolled: { bulk: [] as number[], one: [] as number[], upd: [] as number[] },
  trig: { bulk: [] as number[], one: [] as number[], upd: [] as number[] },
};
for (let k = 0; k < 400; k++) {
  const bulk = k % 10 === 0;
  for (const [which, t] of (k % 2
    ? [
        ['plain', T],
        ['rolled', T2],
      ]
    : [
        ['rolled', T2],
        ['plain', T],
      ]) as Array<['plain' | 'rolled', string]>) {
    const base = id;
    if (bulk) {
      const r = await explain(on(`INSERT INTO "${T}" VALUES ${values(500, base)}`, t));
      timed[which].bulk.push(r.total);
      if (which === 'rolled') timed.trig.bulk.push(r.trig);
    }
    const r1 = await explain(on(`INSERT INTO "${T}" VALUES ${values(1, base + 500)}`, t));
    const r2 = await explain(
      on(
        `UPDATE "${T}" SET "c_status" = 'paid', "c_amount" = ${k} WHERE _id = '${(base + 500).toString(16).padStart(24, '0')}'`,
        t,
      ),
    );
    timed[which].one.push(r1.total);
    timed[which].upd.push(r2.total);
    if (which === 'rolled') {
      timed.trig.one.push(r1.trig);
      timed.trig.upd.push(r2.trig);
    }
  }
  id += 501;
}
console.log(
  `alternating, two tables alike (load ${os.loadavg()[0]!.toFixed(1)}), median statement ms without / with a rollup (its trigger):`,
);
for (const k of ['bulk', 'one', 'upd'] as const)
  console.log(
    `  ${k === 'bulk' ? '500-row INSERT' : k === 'one' ? 'one-row INSERT' : 'one-row UPDATE'}: ${med(timed.plain[k]).toFixed(3)} / ${med(timed.rolled[k]).toFixed(3)} (${med(timed.trig[k]).toFixed(3)}) → ${(med(timed.rolled[k]) / med(timed.plain[k])).toFixed(2)}×`,
  );
await c.query(`DROP SCHEMA "${schema}" CASCADE`);
await c.end();
