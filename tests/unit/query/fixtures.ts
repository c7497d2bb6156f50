/** A small table with every field type, including empty and missing values, and a query runner. */
import { evaluate, type FieldMap, normalize, type QueryContext } from '../../../src/shared/query/index.ts';

/** Epoch ms of a wall clock in Asia/Shanghai (UTC+8, no DST). */
export function sh(y: number, m: number, d: number, h = 0, mi = 0, s = 0): number {
  return Date.UTC(y, m - 1, d, h - 8, mi, s);
}

export const FIELDS: FieldMap = {
  name: 'text',
  qty: 'number',
  at: 'date',
  clock: 'time',
  owner: 'relate',
  tags: 'collection',
};

export const ROWS = [
  {
    _id: 'r1',
    name: 'Apple pie',
    qty: 10,
    at: sh(2024, 3, 15, 10),
    clock: '08:30:00',
    owner: 'u1',
    tags: ['t1', 't2'],
  },
  {
    _id: 'r2',
    name: 'apple',
    qty: 2.5,
    at: sh(2024, 3, 14, 23, 59, 59),
    clock: '17:00:00',
    owner: 'u2',
    tags: ['t2'],
  },
  { _id: 'r3', name: '100%_off', qty: -3, at: sh(2024, 3, 16), clock: '08:30:00', owner: 'u1', tags: [] },
  { _id: 'r4', name: '', qty: null, at: null, clock: '', owner: '', tags: null },
  { _id: 'r5' },
  { _id: 'r6', name: 'Banana', qty: 0, at: sh(2024, 1, 1), clock: '23:59:59', owner: 'u3', tags: ['t3'] },
];

/** Friday 2024-03-15 12:00 in Shanghai. */
export const NOW = sh(2024, 3, 15, 12);

export const CTX: QueryContext = { now: NOW, user: { _id: 'u1', nickname: 'apple' }, fields: FIELDS };

/** Ids of the rows a request answers over ROWS (throws on a refused request). */
export function ids(request: unknown, ctx: QueryContext = CTX): string[] {
  const r = normalize(request, ctx);
  if (!r.ok) throw r.error;
  return evaluate(ROWS, r.query, FIELDS).rows.map((row) => row._id);
}

/** Ids matched by one clause, in `_id` order. */
export function match(clause: Record<string, unknown>, ctx: QueryContext = CTX): string[] {
  return ids({ query: { $and: [clause] }, all: true }, ctx);
}
