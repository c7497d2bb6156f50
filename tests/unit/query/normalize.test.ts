/** normalize: $$USER, the empty-_id short-circuit, flattening, paging defaults and refusals. */
import { describe, expect, it } from 'vitest';
import { E } from '../../../src/shared/errors.ts';
import { normalize, type QueryContext } from '../../../src/shared/query/index.ts';
import { CTX, ids, match } from './fixtures.ts';

const A = { field: 'name', type: 'text', opt: 'eq', value: 'apple' };
const B = { field: 'qty', type: 'number', opt: 'gt', value: 1 };
const C = { field: 'owner', type: 'relate', opt: 'set', value: ['u1'] };
const pA = { kind: 'text', field: 'name', op: 'eq', value: 'apple' };
const pB = { kind: 'number', field: 'qty', op: 'gt', value: 1 };
const pC = { kind: 'relate', field: 'owner', op: 'in', value: ['u1'] };

function ok(request: unknown, ctx: QueryContext = CTX) {
  const r = normalize(request, ctx);
  if (!r.ok) throw r.error;
  return r.query;
}

function refused(request: unknown, ctx: QueryContext = CTX) {
  const r = normalize(request, ctx);
  if (r.ok) throw new Error('accepted');
  return { code: r.error.def.code, path: r.error.path };
}

describe('$$USER', () => {
  const user = { _id: 'u1', nickname: 'apple', teams: ['u2', 'u3'], blank: '', obj: { a: 1 } };
  const ctx = { ...CTX, user };
  it.each([
    [{ field: 'owner', type: 'relate', opt: 'set', value: ['$$USER'] }, ['r1', 'r3']],
    [{ field: 'owner', type: 'relate', opt: 'set', value: '$$USER' }, ['r1', 'r3']],
    [{ field: 'name', type: 'text', opt: 'eq', value: '$$USER@nickname' }, ['r2']],
    [{ field: 'owner', type: 'relate', opt: 'set', value: '$$USER@teams' }, ['r2', 'r6']],
    [
      { field: 'owner', type: 'relate', opt: 'set', value: ['$$USER', '$$USER@teams'] },
      ['r1', 'r2', 'r3', 'r6'],
    ],
    [{ field: 'name', type: 'text', opt: 'eq', value: '$$USER@missing' }, []],
    [{ field: 'name', type: 'text', opt: 'eq', value: '$$USER@blank' }, []],
    [{ field: 'name', type: 'text', opt: 'eq', value: '$$USER@obj' }, []],
    [{ field: 'name', type: 'text', opt: 'eq', value: '$$USER@__proto__' }, []],
  ])('%j', (clause, expected) => {
    expect(match(clause, ctx)).toEqual(expected);
  });

  it('matches nothing without a user (never widens)', () => {
    expect(
      match({ field: 'owner', type: 'relate', opt: 'set', value: '$$USER' }, { ...CTX, user: null }),
    ).toEqual([]);
  });
});

describe('empty _id short-circuit', () => {
  it.each([
    { field: '_id', type: '_id', opt: 'eq', value: '' },
    { field: '_id', type: '_id', opt: 'eq' },
    { field: '_id', type: 'text', opt: 'eq', value: null },
    { field: '_id', type: '_id', opt: 'set', value: [] },
    { field: '_id', type: '_id', opt: 'set', value: [''] },
  ])('empties the answer for %j', (clause) => {
    const q = ok({ query: { $and: [B, { $and: [clause] }] }, count: true });
    expect(q.nothing).toBe(true);
    expect(ids({ query: [clause] })).toEqual([]);
  });

  it('is off with empty: true (the clause is dropped)', () => {
    const q = ok({ query: [{ field: '_id', type: '_id', opt: 'eq', value: '' }], empty: true });
    expect(q).toMatchObject({ nothing: false, where: null });
  });

  it('inside an $or only that branch is false', () => {
    const q = ok({ query: { $or: [{ field: '_id', type: '_id', opt: 'eq', value: '' }, A] } });
    expect(q).toMatchObject({ nothing: false, where: pA });
  });

  it('ne with no value is just dropped', () => {
    expect(ok({ query: [{ field: '_id', type: '_id', opt: 'ne', value: '' }] })).toMatchObject({
      nothing: false,
    });
  });
});

describe('flattening', () => {
  it.each([
    [{ $and: [{ $and: [A] }] }, pA],
    [{ $and: [{ $and: [A, B] }, C] }, { kind: 'and', items: [pA, pB, pC] }],
    [{ $and: [{ $and: [{ $and: [A, B] }] }] }, { kind: 'and', items: [pA, pB] }],
    [{ $or: [{ $or: [A, B] }, C] }, { kind: 'or', items: [pA, pB, pC] }],
    [
      { $and: [A], $or: [B, C] },
      { kind: 'and', items: [pA, { kind: 'or', items: [pB, pC] }] },
    ],
    [[A, B], { kind: 'and', items: [pA, pB] }],
    [A, pA],
    [{ $or: [A, { field: 'name', type: 'text', opt: 'eq', value: '' }] }, pA],
    [{ $and: [{ $or: [] }, {}] }, null],
  ])('%j', (query, where) => {
    expect(ok({ query }).where).toEqual(where);
  });
});

describe('paging and sort', () => {
  it('defaults to page 1 of 20', () => {
    expect(ok({})).toEqual({ where: null, sort: [], offset: 0, limit: 20, count: false, nothing: false });
  });
  it.each([
    [{ page: { index: 3, size: 10 } }, 20, 10],
    [{ page: { index: '2', size: '5' } }, 5, 5],
    [{ page: { size: 50_000 } }, 0, 10_000],
    [{ all: true, page: { index: 9 } }, 0, 10_000],
    [{ all: 'true' }, 0, 10_000],
  ])('%j', (req, offset, limit) => {
    expect(ok(req)).toMatchObject({ offset, limit });
  });
  it('reads sort orders and drops duplicate keys', () => {
    const q = ok({
      sort: [{ field: 'qty', order: 'descend' }, { field: 'name' }, { field: 'qty', order: 1 }],
    });
    expect(q.sort).toEqual([
      { field: 'qty', order: 'desc' },
      { field: 'name', order: 'asc' },
    ]);
  });
});

describe('refusals name the path', () => {
  const { code: INVALID } = E.QUERY_INVALID;
  const { code: COMPLEX } = E.QUERY_TOO_COMPLEX;
  let deep: unknown = A;
  for (let i = 0; i < 8; i++) deep = { $and: [deep] };
  it.each([
    [{ query: [{ ...A, opt: 'like' }] }, INVALID, 'query.$and[0].opt'],
    [{ query: [{ ...A, type: 'string' }] }, INVALID, 'query.$and[0].type'],
    [{ query: [{ ...B, opt: 'contain' }] }, INVALID, 'query.$and[0].opt'],
    [{ query: [{ field: 'clock', type: 'time', opt: 'isnull' }] }, INVALID, 'query.$and[0].opt'],
    [{ query: [{ ...B, value: { $gt: 1 } }] }, INVALID, 'query.$and[0].value'],
    [{ query: [{ ...B, value: Number.NaN }] }, INVALID, 'query.$and[0].value'],
    [{ query: [{ ...B, value: Number.POSITIVE_INFINITY }] }, INVALID, 'query.$and[0].value'],
    [{ query: [{ ...B, value: '1e999' }] }, INVALID, 'query.$and[0].value'],
    [{ query: [{ ...B, opt: 'between', value: [1, 2, 3] }] }, INVALID, 'query.$and[0].value'],
    [{ query: [{ ...B, opt: 'between', value: [1, 'x'] }] }, INVALID, 'query.$and[0].value[1]'],
    [{ query: [{ ...A, value: ['a'] }] }, INVALID, 'query.$and[0].value'],
    [{ query: [{ ...A, value: 'a\u0000b' }] }, INVALID, 'query.$and[0].value'],
    [{ query: [{ ...A, value: '\ud800' }] }, INVALID, 'query.$and[0].value'],
    [{ query: [{ ...A, value: 'x'.repeat(1001) }] }, COMPLEX, 'query.$and[0].value'],
    [
      { query: [{ field: 'at', type: 'date', opt: 'eq', value: ' '.repeat(1001) }] },
      COMPLEX,
      'query.$and[0].value',
    ],
    [
      { query: [{ field: 'clock', type: 'time', opt: 'eq', value: '0'.repeat(5000) }] },
      COMPLEX,
      'query.$and[0].value',
    ],
    [{ query: [{ ...B, opt: 'between', value: [1, 'x'.repeat(1001)] }] }, COMPLEX, 'query.$and[0].value[1]'],
    [{ query: [{ ...A, field: 'na me' }] }, INVALID, 'query.$and[0].field'],
    [{ query: [{ ...A, field: 'price' }] }, INVALID, 'query.$and[0].field'],
    [{ query: [{ ...A, field: 'qty' }] }, INVALID, 'query.$and[0].type'],
    [{ query: [{ ...C, value: [1] }] }, INVALID, 'query.$and[0].value[0]'],
    [
      { query: [{ field: 'clock', type: 'time', opt: 'eq', value: '24:00' }] },
      INVALID,
      'query.$and[0].value',
    ],
    [
      { query: [{ field: 'at', type: 'date', opt: 'eq', value: '2024-02-30' }] },
      INVALID,
      'query.$and[0].value',
    ],
    [{ query: [{ field: 'at', type: 'date', opt: 'eq', value: 'soon' }] }, INVALID, 'query.$and[0].value'],
    [{ query: [{ field: 'at', type: 'date', opt: 'eq', value: 1e20 }] }, INVALID, 'query.$and[0].value'],
    [{ query: { $where: 'true' } }, INVALID, 'query.$where'],
    [{ query: { name: 'apple' } }, INVALID, 'query.name'],
    [{ query: { $and: A } }, INVALID, 'query.$and'],
    [{ query: { $and: [A, 'x'] } }, INVALID, 'query.$and[1]'],
    [{ query: { ...A, $and: [] } }, INVALID, 'query'],
    [{ query: deep }, COMPLEX, `query${'.$and[0]'.repeat(8)}`],
    [{ query: Array.from({ length: 201 }, () => A) }, COMPLEX, 'query.$and'],
    [{ query: Array.from({ length: 101 }, () => ({ $or: [A, B] })) }, COMPLEX, 'query.$and[100].$or[0]'],
    [
      { query: [{ ...C, value: Array.from({ length: 1001 }, (_, i) => `id${i}`) }] },
      COMPLEX,
      'query.$and[0].value',
    ],
    [{ sort: [{ field: 'qty', order: 'up' }] }, INVALID, 'sort[0].order'],
    [{ sort: [{ field: 'tags' }] }, INVALID, 'sort[0].field'],
    [{ sort: 'qty' }, INVALID, 'sort[0]'],
    [{ page: { index: 0 } }, INVALID, 'page.index'],
    [{ page: { size: 2.5 } }, INVALID, 'page.size'],
    [{ page: 2 }, INVALID, 'page'],
    [{ all: 'yes' }, INVALID, 'all'],
    ['query', INVALID, ''],
  ])('%#: %j', (req, code, path) => {
    expect(refused(req)).toEqual({ code, path });
  });
});
