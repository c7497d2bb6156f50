import { describe, expect, it } from 'vitest';
import { sortOf, totalOf, totalText } from './table-view.ts';

const data = (total: number | undefined, exact?: boolean) => ({
  rows: [{ _id: 'a' }],
  meta: { total, ...(exact === undefined ? {} : { exact }) },
  loading: false,
});

describe('table view', () => {
  it("turns antd's sorter into the server's sort; off, or no column, is no sort", () => {
    expect(sortOf({ columnKey: 'qty', order: 'ascend' })).toEqual({ field: 'qty', order: 'asc' });
    expect(sortOf([{ columnKey: 'qty', order: 'descend' }])).toEqual({ field: 'qty', order: 'desc' });
    expect(sortOf({ columnKey: 'qty', order: undefined })).toBeUndefined();
    expect(sortOf({ order: 'ascend' })).toBeUndefined();
    expect(sortOf({ columnKey: 'qty', order: 'sideways' })).toBeUndefined();
    expect(sortOf(undefined)).toBeUndefined();
  });

  it('says "at least n" until the count is known, in the UI language', () => {
    expect(totalOf(data(20, false))).toEqual({ n: 20, exact: false });
    expect(totalOf(data(undefined))).toEqual({ n: 1, exact: true });
    expect(totalText(data(20, false), 'en')).toBe('at least 20 rows');
    expect(totalText(data(57), 'en')).toBe('57 rows');
    expect(totalText(data(20, false), 'zh')).toBe('至少 20 条');
    expect(totalText(data(57, true), 'zh')).toBe('共 57 条');
  });
});
