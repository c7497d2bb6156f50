/**
 * The rollup's SQL (data/rollup.ts rollupStatements) on a bare SQLite table: after random inserts,
 * updates (of keys, values, both, nothing, to and from NULL and '') and deletes, in transactions
 * some of which roll back, the rollup holds exactly what a GROUP BY over the table answers now:
 * the same groups (none empty), counts equal, sums equal to the table's compensated sum.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { type RollupShape, rollupStatements } from '../../src/server/data/rollup.ts';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

const T = 'e_aaaaaaaaaaaaaaaaaaaaaaaa';
const R = 'rx_aaaaaaaaaaaaaaaaaaaaaaaa_0123456789';

interface Row {
  k: string | null;
  j: number | null;
  note: string | null;
  x: number | null;
  y: number | null;
}

function setup() {
  const db = new Database(':memory:');
  db.exec(
    `CREATE TABLE "${T}" (_id TEXT PRIMARY KEY, "c_k" text, "c_j" real, "c_note" text, "c_x" real, "c_y" real)`,
  );
  return db;
}

function fill(db: Database.Database, shape: RollupShape) {
  db.exec('BEGIN IMMEDIATE');
  for (const s of rollupStatements(R, T, shape)) db.exec(s);
  db.exec('COMMIT');
}

/** The rollup's rows and the GROUP BY's, in one comparable form. */
function both(db: Database.Database, shape: RollupShape) {
  const keys = shape.keys.map((k) => `"${k}"`);
  const kAs = shape.keys.map((_, i) => `k${i}`);
  const scanCols = [
    ...keys.map((k, i) => `${k} AS k${i}`),
    'count(*) AS n',
    ...shape.vals.flatMap((v, i) =>
      v.sum
        ? [`count("${v.column}") AS c${i}`, `total("${v.column}") AS s${i}`]
        : [`count(NULLIF("${v.column}", '')) AS c${i}`],
    ),
  ];
  const order = kAs.length ? ` ORDER BY ${kAs.join(', ')}` : '';
  const scan = db
    .prepare(
      `SELECT ${scanCols.join(', ')} FROM "${T}"${keys.length ? ` GROUP BY ${keys.join(', ')}` : ''}${order}`,
    )
    .all() as Record<string, unknown>[];
  const rollCols = [
    ...kAs,
    'n',
    ...shape.vals.flatMap((v, i) => (v.sum ? [`c${i}`, `s${i} + e${i} AS s${i}`] : [`c${i}`])),
  ];
  const roll = db.prepare(`SELECT ${rollCols.join(', ')} FROM "${R}" WHERE n > 0${order}`).all() as Record<
    string,
    unknown
  >[];
  const empty = db.prepare(`SELECT count(*) AS n FROM "${R}" WHERE n <= 0`).get() as { n: number };
  // An empty table still has the total's row in a GROUP BY-less scan.
  return { scan: keys.length ? scan : scan.filter((r) => Number(r.n) > 0), roll, empty: empty.n };
}

/**
 * The rollup's rows are the scan's: keys and counts equal, sums within 1e-6 (plus 1e-12 of their
 * size): a sum without compensation is off by ~0.1 here after ±1e15 cancel.
 */
function expectSame(roll: Record<string, unknown>[], scan: Record<string, unknown>[], what: string) {
  expect(
    roll.map((r) => Object.keys(r)),
    what,
  ).toEqual(scan.map((r) => Object.keys(r)));
  expect(roll.length, what).toBe(scan.length);
  roll.forEach((r, i) => {
    const w = scan[i]!;
    for (const [k, v] of Object.entries(r)) {
      if (/^s\d/.test(k)) {
        const a = Number(v);
        const b = Number(w[k]);
        expect(Math.abs(a - b), `${what} row ${i} ${k}: ${a} vs ${b}`).toBeLessThanOrEqual(
          1e-6 + 1e-12 * Math.max(Math.abs(a), Math.abs(b)),
        );
      } else expect(v, `${what} row ${i} ${k}`).toEqual(w[k]);
    }
  });
}

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

describe('rollup triggers', () => {
  it.each(SHAPES)('%s: exact after random writes and rollbacks', (_, shape) => {
    const db = setup();
    const r = rng(11);
    const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
    let big = 1e11;
    const value = (): Row => ({
      k: pick([null, '', 'north', 'south', 'east', "x'y", 'Ünï']),
      j: pick([null, 1, 2, 2.5]),
      note: pick([null, '', 'n']),
      // ±1e15 only once the rollup is filled (its fill is exact for values under 2^40, rollup.ts).
      x: r() < 0.2 ? null : pick([0.1, 0.2, 0.3, big, -big, 123.45, -7, 3.3333]),
      y: r() < 0.5 ? null : Math.round(r() * 1e6) / 100,
    });
    const ins = db.prepare(`INSERT INTO "${T}" VALUES (?, ?, ?, ?, ?, ?)`);
    let id = 0;
    const ids: string[] = [];
    const add = () => {
      const v = value();
      const i = `r${id++}`;
      ins.run(i, v.k, v.j, v.note, v.x, v.y);
      ids.push(i);
    };
    for (let i = 0; i < 200; i++) add();
    fill(db, shape);
    big = 1e15;
    const filled = both(db, shape);
    expectSame(filled.roll, filled.scan, 'filled');
    const cols = ['c_k', 'c_j', 'c_note', 'c_x', 'c_y'];
    for (let step = 0; step < 60; step++) {
      const rollback = r() < 0.25;
      db.exec('BEGIN');
      for (let w = 0; w < 10; w++) {
        const what = r();
        if (what < 0.3) add();
        else if (what < 0.5 && ids.length) {
          const i = ids.splice(Math.floor(r() * ids.length), 1)[0]!;
          db.prepare(`DELETE FROM "${T}" WHERE _id = ?`).run(i);
        } else if (ids.length) {
          const i = pick(ids);
          const v = value();
          const all: unknown[] = [v.k, v.j, v.note, v.x, v.y];
          // Some columns only, or all of them (a form saving every field), or the same values again.
          const chosen = cols.map((c, n) => [c, all[n]] as const).filter(() => r() < 0.5);
          if (chosen.length === 0) db.prepare(`UPDATE "${T}" SET "c_k" = "c_k" WHERE _id = ?`).run(i);
          else
            db.prepare(`UPDATE "${T}" SET ${chosen.map(([c]) => `"${c}" = ?`).join(', ')} WHERE _id = ?`).run(
              ...chosen.map(([, x]) => x),
              i,
            );
        }
      }
      if (rollback) {
        db.exec('ROLLBACK');
        // The ids list may now name rows that were never kept or forget restored ones: read it again.
        ids.splice(0, ids.length, ...(db.prepare(`SELECT _id FROM "${T}"`).pluck().all() as string[]));
      } else db.exec('COMMIT');
      const now = both(db, shape);
      expect(now.empty, `step ${step}`).toBe(0);
      expectSame(now.roll, now.scan, `step ${step}`);
    }
    // Every row gone: no group left.
    db.exec(`DELETE FROM "${T}"`);
    expect(both(db, shape).roll).toEqual([]);
    db.close();
  });

  it('sums stay exact where a plain running sum drifts', () => {
    const shape: RollupShape = { key: 'a', keys: [], vals: [{ column: 'c_x', text: false, sum: true }] };
    const db = setup();
    fill(db, shape);
    const ins = db.prepare(`INSERT INTO "${T}" (_id, "c_x") VALUES (?, ?)`);
    ins.run('big', 1e16);
    for (let i = 0; i < 1000; i++) ins.run(`s${i}`, 1);
    db.prepare(`DELETE FROM "${T}" WHERE _id = 'big'`).run();
    const { s0, e0 } = db.prepare(`SELECT s0, e0 FROM "${R}"`).get() as { s0: number; e0: number };
    // Without the compensation each +1 beside 1e16 is lost: 0 instead of 1000.
    expect(s0 + e0).toBe(1000);
    db.close();
  });
});
