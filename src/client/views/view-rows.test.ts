import { describe, expect, it } from 'vitest';
import { groupIndexes, groupingReady, groupRows, type Row } from './view-rows.ts';

/** Rows as the server sends them when grouped: sorted by the group fields. */
const rows: Row[] = [
  { _id: 'a1', kind: 'alpha', size: 'S' },
  { _id: 'a2', kind: 'alpha', size: 'S' },
  { _id: 'a3', kind: 'alpha', size: 'L' },
  { _id: 'b1', kind: 'beta', size: 'L' },
  { _id: 'c1', kind: '', size: 'S' },
  { _id: 'c2', kind: '', size: 'S' },
];

const numbers = (group: string[]) => Object.fromEntries(groupIndexes(groupRows(rows, group, null)));

describe('index column when grouped', () => {
  it('counts from 1 inside each group', () => {
    expect(numbers(['kind'])).toEqual({ a1: 1, a2: 2, a3: 3, b1: 1, c1: 1, c2: 2 });
  });

  it('with two fields, counts inside each second-level group', () => {
    expect(numbers(['kind', 'size'])).toEqual({ a1: 1, a2: 2, a3: 1, b1: 1, c1: 1, c2: 2 });
  });

  it('numbers no group head', () => {
    const shown = groupRows(rows, ['kind'], null);
    const heads = shown.filter((r) => r.__group).map((r) => r._id);
    expect(heads).toHaveLength(3);
    for (const h of heads) expect(groupIndexes(shown).has(h)).toBe(false);
  });

  it('ungrouped rows count on in order', () => {
    expect([...groupIndexes(rows).values()]).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

/** The grouped summary of a set of rows by `kind`: each group's count as `m0`, in key order. */
const statsOf = (counts: [string, number][]) => ({
  total: {},
  groups: counts.map(([k, n]) => ({ key: [k], values: { m0: n } })),
});

describe('index column when a group continues from an earlier page', () => {
  // The whole set by kind: alpha 5, beta 4, gamma 3; pages of 3.
  const stats = statsOf([
    ['alpha', 5],
    ['beta', 4],
    ['gamma', 3],
  ]);
  const page = (ids: [string, string][]) => ids.map(([id, kind]) => ({ _id: id, kind }));
  const numbered = (list: Row[], offset: number) =>
    Object.fromEntries(groupIndexes(groupRows(list, ['kind'], stats), offset, stats));

  it('a group that ends on this page counts on from its earlier rows', () => {
    // Page 2: alpha 4, 5, then beta 1.
    const p2 = page([
      ['a4', 'alpha'],
      ['a5', 'alpha'],
      ['b1', 'beta'],
    ]);
    expect(numbered(p2, 3)).toEqual({ a4: 4, a5: 5, b1: 1 });
  });

  it('a group that fills the page counts on from the rows before it', () => {
    // Page 3: beta 2, 3, 4 (alpha's 5 rows and beta 1 came before).
    const p3 = page([
      ['b2', 'beta'],
      ['b3', 'beta'],
      ['b4', 'beta'],
    ]);
    expect(numbered(p3, 6)).toEqual({ b2: 2, b3: 3, b4: 4 });
  });

  it('the first page and a group starting a page count from 1', () => {
    const p1 = page([
      ['a1', 'alpha'],
      ['a2', 'alpha'],
      ['a3', 'alpha'],
    ]);
    expect(numbered(p1, 0)).toEqual({ a1: 1, a2: 2, a3: 3 });
    const p4 = page([
      ['g1', 'gamma'],
      ['g2', 'gamma'],
      ['g3', 'gamma'],
    ]);
    expect(numbered(p4, 9)).toEqual({ g1: 1, g2: 2, g3: 3 });
  });

  it('with two fields, the first inner group of the page counts on', () => {
    const two = {
      total: {},
      groups: [
        { key: ['alpha', 'L'], values: { m0: 2 } },
        { key: ['alpha', 'S'], values: { m0: 4 } },
      ],
    };
    // Page 2 of 3-row pages: alpha/S rows 2, 3, 4 (alpha/L 2 rows and alpha/S 1 came before).
    const list = [
      { _id: 's2', kind: 'alpha', size: 'S' },
      { _id: 's3', kind: 'alpha', size: 'S' },
      { _id: 's4', kind: 'alpha', size: 'S' },
    ];
    const got = groupIndexes(groupRows(list, ['kind', 'size'], two), 3, two);
    expect(Object.fromEntries(got)).toEqual({ s2: 2, s3: 3, s4: 4 });
  });

  it('without the counts of the groups it counts from 1', () => {
    const p2 = page([
      ['a4', 'alpha'],
      ['a5', 'alpha'],
    ]);
    expect(Object.fromEntries(groupIndexes(groupRows(p2, ['kind'], null), 3, null))).toEqual({
      a4: 1,
      a5: 2,
    });
  });
});

describe('a new grouping is drawn once', () => {
  const sortList = [{ field: 'kind', order: 'asc' }];
  const sorted = JSON.stringify(sortList);
  const grouped = JSON.stringify(['kind']);

  it("waits for rows in the grouping's order and for its summary", () => {
    expect(groupingReady(['kind'], sortList, sorted, grouped)).toBe(true);
    // Rows still in the old order (ungrouped), the sums in: wait.
    expect(groupingReady(['kind'], sortList, '[]', grouped)).toBe(false);
    // Rows in, the summary not back yet (or back for the grouping before): wait.
    expect(groupingReady(['kind'], sortList, sorted, null)).toBe(false);
    expect(groupingReady(['kind'], sortList, sorted, JSON.stringify(['size']))).toBe(false);
  });

  it('a second field needs its own rows and summary', () => {
    const two = [...sortList, { field: 'size', order: 'asc' }];
    expect(groupingReady(['kind', 'size'], two, sorted, grouped)).toBe(false);
    expect(groupingReady(['kind', 'size'], two, JSON.stringify(two), grouped)).toBe(false);
    expect(groupingReady(['kind', 'size'], two, JSON.stringify(two), JSON.stringify(['kind', 'size']))).toBe(
      true,
    );
  });
});
