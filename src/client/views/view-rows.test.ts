import { describe, expect, it } from 'vitest';
import { groupIndexes, groupRows, type Row } from './view-rows.ts';

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
