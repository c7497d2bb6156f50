/**
 * The PostgreSQL rollup's SQL (data/rollup-pg.ts) on a bare table, with writers on four connections
 * at once: random inserts, updates (of keys, values, both, nothing, to and from NULL and '') and
 * deletes in transactions some of which roll back, the build (its brief lock, then the fill from a
 * snapshot) made while they write, and compactions while they write. After each round the rollup's
 * rows summed per group are exactly what a GROUP BY over the table answers now: the same groups,
 * counts equal, sums equal as numerics (each double taken as the same decimal on both sides).
 * A session printing floats in fewer digits (extra_float_digits = 0) writes beside them: the
 * trigger functions set their own.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RollupShape } from '../../src/server/data/rollup.ts';
import {
  pgCompactStatement,
  pgCreateStatements,
  pgExact,
  pgFillStatements,
} from '../../src/server/data/rollup-pg.ts';
import { postgresUrl } from '../helpers/db.ts';

const url = await postgresUrl();

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

const T = 'e_aaaaaaaaaaaaaaaaaaaaaaaa';
const R = 'rx_aaaaaaaaaaaaaaaaaaaaaaaa_0123456789';

const SHAPES: Array<[string, RollupShape]> = [
  [
    'one text key, a number summed',
    { key: 'a', keys: ['c_k'], vals: [{ column: 'c_x', text: false, sum: true }] },
  ],
  [
    'two keys (text, number), two sums and a text count',
    {
      key: 'b',
      keys: ['c_k', 'c_j'],
      vals: [
        { column: 'c_note', text: true, sum: false },
        { column: 'c_x', text: false, sum: true },
        { column: 'c_y', text: false, sum: true },
      ],
    },
  ],
  ['no key: the total', { key: 'c', keys: [], vals: [{ column: 'c_x', text: false, sum: true }] }],
  ['no key, no value: the row count', { key: 'e', keys: [], vals: [] }],
  [
    'a key that is also counted',
    { key: 'd', keys: ['c_k'], vals: [{ column: 'c_k', text: true, sum: false }] },
  ],
];

/** Groups where the rollup and a GROUP BY over the table differ (none when it is exact). */
async function differences(c: pg.Client, shape: RollupShape): Promise<unknown[]> {
  const keys = shape.keys.map((k, i) => `"${k}" AS k${i}`);
  const by = (cols: string[]) => (cols.length ? ` GROUP BY ${cols.join(', ')}` : '');
  const scanCols = [
    ...keys,
    'count(*)::numeric AS n',
    ...shape.vals.flatMap((v, i) => {
      const counted = v.text ? `count(NULLIF("${v.column}", ''))` : `count("${v.column}")`;
      return v.sum
        ? [`${counted}::numeric AS c${i}`, `coalesce(sum(${pgExact(`"${v.column}"`)}), 0) AS s${i}`]
        : [`${counted}::numeric AS c${i}`];
    }),
  ];
  const vals = ['n', ...shape.vals.flatMap((v, i) => (v.sum ? [`c${i}`, `s${i}`] : [`c${i}`]))];
  const kAs = shape.keys.map((_, i) => `k${i}`);
  const scan = `SELECT ${scanCols.join(', ')} FROM "${T}"${by(shape.keys.map((k) => `"${k}"`))} HAVING count(*) > 0`;
  const roll = `SELECT ${[...kAs, ...vals.map((v) => `sum(${v}) AS ${v}`)].join(', ')} FROM "${R}"${by(kAs)} HAVING ${vals
    .map((v) => `sum(${v}) <> 0`)
    .join(' OR ')}`;
  const r = await c.query(
    `SELECT 'table' AS side, * FROM (${scan} EXCEPT ALL ${roll}) a UNION ALL SELECT 'rollup' AS side, * FROM (${roll} EXCEPT ALL ${scan}) b`,
  );
  return r.rows;
}

describe.skipIf(!url)('PostgreSQL rollup triggers', () => {
  const schema = `rxt_${randomBytes(6).toString('hex')}`;
  const clients: pg.Client[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.end();
    for (let i = 0; i < 4; i++) {
      const floats = i === 3 ? ' -c extra_float_digits=0' : '';
      const c = new pg.Client({ connectionString: url, options: `-c search_path=${schema}${floats}` });
      await c.connect();
      clients.push(c);
    }
  });
  afterAll(async () => {
    for (const c of clients) await c.end();
    if (!url) return;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it.each(SHAPES)(
    '%s: exact under concurrent writes, rollbacks, a build and compactions',
    async (_, shape) => {
      const [main, ...writers] = clients as [pg.Client, ...pg.Client[]];
      await main.query(`DROP TABLE IF EXISTS "${R}"; DROP TABLE IF EXISTS "${T}" CASCADE`);
      await main.query(
        `CREATE TABLE "${T}" (_id text PRIMARY KEY, "c_k" text, "c_j" double precision, "c_note" text, "c_x" double precision, "c_y" double precision)`,
      );
      for (const f of ['fi', 'fu', 'fd']) await main.query(`DROP FUNCTION IF EXISTS "${R}_${f}"() CASCADE`);
      let big = 1e11;
      const writer = async (c: pg.Client, w: number, rounds: number) => {
        const r = rng(100 + w);
        const pick = <X>(xs: X[]) => xs[Math.floor(r() * xs.length)]!;
        const value = () => [
          pick([null, '', 'north', 'south', 'east', "x'y", 'Ünï']),
          pick([null, 1, 2, 2.5]),
          pick([null, '', 'n']),
          r() < 0.2 ? null : pick([0.1, 0.2, 0.3, big, -big, 123.45, -7, 3.3333, 0.30000000000000004]),
          r() < 0.5 ? null : Math.round(r() * 1e6) / 100,
        ];
        let n = 0;
        const ids: string[] = (
          await c.query<{ _id: string }>(`SELECT _id FROM "${T}" WHERE _id LIKE $1`, [`w${w}_%`])
        ).rows.map((x) => x._id);
        for (let step = 0; step < rounds; step++) {
          const rollback = r() < 0.25;
          await c.query('BEGIN');
          for (let k = 0; k < 1 + Math.floor(r() * 8); k++) {
            const what = r();
            if (what < 0.3 || ids.length === 0) {
              const id = `w${w}_${rounds}_${n++}`;
              await c.query(`INSERT INTO "${T}" VALUES ($1, $2, $3, $4, $5, $6)`, [id, ...value()]);
              ids.push(id);
            } else if (what < 0.45) {
              const id = ids.splice(Math.floor(r() * ids.length), 1)[0]!;
              await c.query(`DELETE FROM "${T}" WHERE _id = $1`, [id]);
            } else if (what < 0.5) {
              // A statement over many rows (one delta row per group).
              await c.query(`UPDATE "${T}" SET "c_x" = "c_x" + 1 WHERE _id LIKE $1 AND "c_j" = 2`, [
                `w${w}_%`,
              ]);
            } else {
              const id = pick(ids);
              const cols = ['c_k', 'c_j', 'c_note', 'c_x', 'c_y'];
              const v = value();
              const chosen = cols.map((col, i) => [col, v[i]] as const).filter(() => r() < 0.5);
              if (chosen.length === 0) await c.query(`UPDATE "${T}" SET "c_k" = "c_k" WHERE _id = $1`, [id]);
              else
                await c.query(
                  `UPDATE "${T}" SET ${chosen.map(([col], i) => `"${col}" = $${i + 2}`).join(', ')} WHERE _id = $1`,
                  [id, ...chosen.map(([, x]) => x)],
                );
            }
          }
          if (rollback) {
            await c.query('ROLLBACK');
            ids.splice(
              0,
              ids.length,
              ...(
                await c.query<{ _id: string }>(`SELECT _id FROM "${T}" WHERE _id LIKE $1`, [`w${w}_%`])
              ).rows.map((x) => x._id),
            );
          } else await c.query('COMMIT');
        }
      };
      await Promise.all(writers.map((c, w) => writer(c, w, 20)));

      // The build while one of them writes: the brief lock (tried again), then the fill from a
      // snapshot. The other two write at set moments around that snapshot.
      const [early, open, busy] = writers as [pg.Client, pg.Client, pg.Client];
      const writing = writer(busy, 2, 30);
      for (;;) {
        try {
          await main.query('BEGIN');
          await main.query(`SET LOCAL lock_timeout = '40ms'`);
          await main.query(`LOCK TABLE "${T}" IN SHARE ROW EXCLUSIVE MODE`);
          for (const s of pgCreateStatements(R, T, shape)) await main.query(s);
          await main.query('COMMIT');
          break;
        } catch (err) {
          await main.query('ROLLBACK');
          if ((err as { code?: string }).code !== '55P03') throw err;
        }
      }
      const some = `(SELECT min(_id) FROM "${T}" WHERE _id LIKE 'w0_%')`;
      // Committed after the triggers, before the snapshot: in the fill and in deltas (dropped).
      await early.query(`INSERT INTO "${T}" VALUES ('early', 'north', 2, 'n', 5.5, 1)`);
      await early.query(`UPDATE "${T}" SET "c_x" = 7.25, "c_k" = 'south' WHERE _id = ${some}`);
      await early.query(`DELETE FROM "${T}" WHERE _id = ${some}`);
      // Open across the snapshot, committed before the fill does: only in deltas (kept).
      await open.query('BEGIN');
      await open.query(`INSERT INTO "${T}" VALUES ('open', 'east', 1, '', 0.3, 2)`);
      await open.query(`UPDATE "${T}" SET "c_x" = -1.5, "c_note" = 'n' WHERE _id = ${some}`);
      await main.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const snap = (await main.query<{ s: string }>('SELECT pg_current_snapshot()::text AS s')).rows[0]!.s;
      const [digits, fill, settle] = pgFillStatements(R, T, shape, snap) as [string, string, string];
      await main.query(digits);
      await main.query(fill);
      await open.query('COMMIT');
      // Committed after the snapshot: only in deltas (kept).
      await early.query(`INSERT INTO "${T}" VALUES ('late', NULL, 2.5, NULL, 1e11, NULL)`);
      await main.query(settle);
      await main.query('COMMIT');
      await writing;
      expect(await differences(main, shape), 'after the build').toEqual([]);
      await Promise.all(writers.map((c, w) => writer(c, w, 10)));
      expect(await differences(main, shape), 'after more writes').toEqual([]);

      // Compactions while they write (±1e15 from now on: exact sums keep what cancels).
      big = 1e15;
      let writersDone = false;
      const more = Promise.all(writers.map((c, w) => writer(c, w, 40))).then(() => {
        writersDone = true;
      });
      let compactions = 0;
      while (!writersDone) {
        await main.query(pgCompactStatement(R, shape));
        compactions++;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await more;
      expect(compactions).toBeGreaterThan(0);
      expect(await differences(main, shape), 'after compactions under writes').toEqual([]);
      // Compacted once more with none writing: one row per group, still exact.
      await main.query(pgCompactStatement(R, shape));
      const rows = Number((await main.query(`SELECT count(*) AS n FROM "${R}"`)).rows[0].n);
      const groups = shape.keys.length
        ? Number(
            (
              await main.query(
                `SELECT count(*) AS n FROM (SELECT DISTINCT ${shape.keys.map((k) => `"${k}"`).join(', ')} FROM "${T}") g`,
              )
            ).rows[0].n,
          )
        : 1;
      expect(rows).toBe(groups);
      expect(await differences(main, shape), 'compacted').toEqual([]);
      // Every row gone: nothing left once compacted.
      await main.query(`DELETE FROM "${T}"`);
      await main.query(pgCompactStatement(R, shape));
      expect((await main.query(`SELECT count(*) AS n FROM "${R}"`)).rows[0].n).toBe('0');
    },
  );

  it('sums stay exact where a plain running sum drifts', async () => {
    const c = clients[0]!;
    const shape: RollupShape = { key: 'a', keys: [], vals: [{ column: 'c_x', text: false, sum: true }] };
    await c.query(`DROP TABLE IF EXISTS "${R}"; DROP TABLE IF EXISTS "${T}" CASCADE`);
    for (const f of ['fi', 'fu', 'fd']) await c.query(`DROP FUNCTION IF EXISTS "${R}_${f}"() CASCADE`);
    await c.query(`CREATE TABLE "${T}" (_id text PRIMARY KEY, "c_x" double precision)`);
    for (const s of pgCreateStatements(R, T, shape)) await c.query(s);
    await c.query(`INSERT INTO "${T}" VALUES ('big', 1e16)`);
    await c.query(`INSERT INTO "${T}" SELECT 's' || i, 1 FROM generate_series(1, 1000) i`);
    for (let i = 0; i < 10; i++) await c.query(`INSERT INTO "${T}" VALUES ($1, 0.1)`, [`t${i}`]);
    await c.query(`DELETE FROM "${T}" WHERE _id = 'big'`);
    const { ok } = (await c.query<{ ok: boolean }>(`SELECT sum(s0) = 1001 AS ok FROM "${R}"`)).rows[0]!;
    // Exactly 1000 plus ten times 0.1: a running sum in doubles would have lost every +1 beside 1e16.
    expect(ok).toBe(true);
  });
});
