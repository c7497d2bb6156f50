/** Summaries and the rounding rule. */
import { describe, expect, it } from 'vitest';
import { normalizeSummary, preciseSum, roundHalfAway, summarize } from '../../../src/shared/query/index.ts';
import { FIELDS, ROWS } from './fixtures.ts';

describe('roundHalfAway', () => {
  it.each([
    [1.005, 2, 1.01],
    [-1.005, 2, -1.01],
    [2.5, 0, 3],
    [-2.5, 0, -3],
    [0.125, 2, 0.13],
    [0.1 + 0.2, 2, 0.3],
    [1.2345e-7, 2, 0],
    [-0.001, 2, 0],
    [123.456, 0, 123],
    [123.4565, 3, 123.457],
    [1e21, 2, 1e21],
    [-1.5e300, 2, -1.5e300],
    [7, 2, 7],
    [2.675, 2, 2.68],
    [1.45, 1, 1.5],
  ])('%d to %d digits → %d', (x, d, expected) => {
    expect(Object.is(roundHalfAway(x, d), expected)).toBe(true);
  });

  it('defaults to 2 digits and clamps digits', () => {
    expect(roundHalfAway(1.23456)).toBe(1.23);
    expect(roundHalfAway(1.23456, 99)).toBe(1.23456);
    expect(roundHalfAway(1.5, -3)).toBe(2);
  });

  it('sums nearly independent of order', () => {
    const xs = [1e16, 1, -1e16, 1];
    expect(preciseSum(xs)).toBe(2);
    expect(preciseSum([...xs].reverse())).toBe(2);
  });
});

describe('summarize', () => {
  const spec = {
    metrics: [
      { fn: 'count' as const },
      { fn: 'count' as const, field: 'qty' },
      { fn: 'sum' as const, field: 'qty' },
      { fn: 'avg' as const, field: 'qty' },
      { fn: 'min' as const, field: 'qty' },
      { fn: 'max' as const, field: 'qty', as: 'top' },
    ],
  };

  it('answers overall figures', () => {
    expect(summarize(ROWS, spec, FIELDS).total).toEqual({
      count: 6,
      count_qty: 4,
      sum_qty: 9.5,
      avg_qty: 2.38,
      min_qty: -3,
      top: 10,
    });
  });

  it('groups in key order with the empty group first', () => {
    const { groups } = summarize(ROWS, { ...spec, group: ['owner'] }, FIELDS);
    expect(groups.map((g) => [g.key, g.values.count, g.values.sum_qty, g.values.avg_qty])).toEqual([
      [[null], 2, 0, null],
      [['u1'], 2, 7, 3.5],
      [['u2'], 1, 2.5, 2.5],
      [['u3'], 1, 0, 0],
    ]);
  });

  it('rounds to the given accuracy', () => {
    const rows = [
      { _id: 'a', qty: 1 },
      { _id: 'b', qty: 2 },
      { _id: 'c', qty: 2 },
    ];
    const avg = (accuracy: number) =>
      summarize(rows, { metrics: [{ fn: 'avg', field: 'qty' }], accuracy }, FIELDS).total.avg_qty;
    expect([avg(0), avg(1), avg(3)]).toEqual([2, 1.7, 1.667]);
  });

  it('answers an empty table', () => {
    expect(summarize([], spec, FIELDS).total).toEqual({
      count: 0,
      count_qty: 0,
      sum_qty: 0,
      avg_qty: null,
      min_qty: null,
      top: null,
    });
  });
});

describe('normalizeSummary', () => {
  it('reads a valid request and fills the accuracy', () => {
    const r = normalizeSummary(
      { group: ['owner'], metrics: [{ fn: 'sum', field: 'qty' }, { fn: 'count' }] },
      FIELDS,
    );
    expect(r).toEqual({
      ok: true,
      spec: { group: ['owner'], metrics: [{ fn: 'sum', field: 'qty' }, { fn: 'count' }], accuracy: 2 },
    });
  });

  it.each([
    [{ metrics: [] }, 'metrics'],
    [{ metrics: [{ fn: 'median', field: 'qty' }] }, 'metrics[0].fn'],
    [{ metrics: [{ fn: 'sum' }] }, 'metrics[0].field'],
    [{ metrics: [{ fn: 'sum', field: 'name' }] }, 'metrics[0].field'],
    [{ metrics: [{ fn: 'avg', field: 'at' }] }, 'metrics[0].field'],
    [{ metrics: [{ fn: 'count' }], group: ['tags'] }, 'group[0]'],
    [{ metrics: [{ fn: 'count' }], group: ['nope'] }, 'group[0]'],
    [{ metrics: [{ fn: 'count' }], accuracy: 2.5 }, 'accuracy'],
    [null, ''],
  ])('refuses %j at %s', (input, path) => {
    const r = normalizeSummary(input, FIELDS);
    expect(r.ok ? null : r.error.path).toBe(path);
  });
});
