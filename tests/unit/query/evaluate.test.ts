/** Sorting (nulls first ascending, code point order, `_id` tie-break), paging and count. */
import { describe, expect, it } from 'vitest';
import { compareText, evaluate, normalize, sortRows } from '../../../src/shared/query/index.ts';
import { CTX, FIELDS, ids, ROWS } from './fixtures.ts';

describe('sort', () => {
  it.each([
    [[{ field: 'qty' }], ['r4', 'r5', 'r3', 'r6', 'r2', 'r1']],
    [[{ field: 'qty', order: 'desc' }], ['r1', 'r2', 'r6', 'r3', 'r4', 'r5']],
    [[{ field: 'name' }], ['r5', 'r4', 'r3', 'r1', 'r6', 'r2']],
    [[{ field: 'at', order: 'desc' }], ['r3', 'r1', 'r2', 'r6', 'r4', 'r5']],
    [
      [{ field: 'clock' }, { field: 'qty', order: 'desc' }],
      ['r5', 'r4', 'r1', 'r3', 'r2', 'r6'],
    ],
    [[{ field: 'owner' }], ['r5', 'r4', 'r1', 'r3', 'r2', 'r6']],
    [[{ field: '_id', order: 'desc' }], ['r6', 'r5', 'r4', 'r3', 'r2', 'r1']],
    [[], ['r1', 'r2', 'r3', 'r4', 'r5', 'r6']],
  ])('%j', (sort, expected) => {
    expect(ids({ sort, all: true })).toEqual(expected);
  });

  it('orders text by code point, not UTF-16 unit', () => {
    expect(compareText('\uffff', '\u{1f600}')).toBeLessThan(0);
    expect(compareText('a', 'ab')).toBeLessThan(0);
    expect(compareText('B', 'a')).toBeLessThan(0);
    const rows = [
      { _id: '1', s: '\u{1f600}' },
      { _id: '2', s: '\uffff' },
      { _id: '3', s: 'z' },
    ];
    expect(sortRows(rows, [{ field: 's', order: 'asc' }], { s: 'text' }).map((r) => r._id)).toEqual([
      '3',
      '2',
      '1',
    ]);
  });

  it('without a declared type puts null < numbers < text (SQLite storage classes)', () => {
    const rows = [{ _id: 'a', v: 'x' }, { _id: 'b', v: 2 }, { _id: 'c' }, { _id: 'd', v: -1 }];
    expect(sortRows(rows, [{ field: 'v', order: 'asc' }], {}).map((r) => r._id)).toEqual([
      'c',
      'd',
      'b',
      'a',
    ]);
  });

  it('leaves the input untouched', () => {
    const before = ROWS.map((r) => r._id);
    ids({ sort: [{ field: 'qty', order: 'desc' }] });
    expect(ROWS.map((r) => r._id)).toEqual(before);
  });
});

describe('paging and count', () => {
  function answer(req: unknown) {
    const r = normalize(req, CTX);
    if (!r.ok) throw r.error;
    const a = evaluate(ROWS, r.query, FIELDS);
    return { ids: a.rows.map((x) => x._id), count: a.count };
  }

  it.each([
    [{ page: { index: 1, size: 4 }, count: true }, ['r1', 'r2', 'r3', 'r4'], 6],
    [{ page: { index: 2, size: 4 }, count: true }, ['r5', 'r6'], 6],
    [{ page: { index: 3, size: 4 }, count: true }, [], 6],
    [{ page: { index: 1, size: 2 } }, ['r1', 'r2'], undefined],
    [
      { query: [{ field: 'qty', type: 'number', opt: 'gte', value: 0 }], page: { size: 1 }, count: true },
      ['r1'],
      3,
    ],
    [{ query: [{ field: '_id', type: '_id', opt: 'eq', value: '' }], count: true }, [], 0],
  ])('%j', (req, expected, count) => {
    expect(answer(req)).toEqual({ ids: expected, count });
  });
});
