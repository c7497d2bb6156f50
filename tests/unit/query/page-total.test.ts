import { describe, expect, it } from 'vitest';
import {
  countBody,
  pagerTotal,
  totalAfterPage,
  totalFromPage,
} from '../../../src/shared/query/page-total.ts';

describe('grid totals without a count', () => {
  it('a short or empty first page is the whole table', () => {
    expect(totalFromPage({ index: 1, size: 500 }, 12)).toEqual({ n: 12, exact: true });
    expect(totalFromPage({ index: 1, size: 500 }, 0)).toEqual({ n: 0, exact: true });
  });

  it('a short later page ends the table after the pages before it', () => {
    expect(totalFromPage({ index: 3, size: 100 }, 40)).toEqual({ n: 240, exact: true });
  });

  it('a full page (or an empty later one) gives only a lower bound', () => {
    expect(totalFromPage({ index: 1, size: 500 }, 500)).toEqual({ n: 500, exact: false });
    expect(totalFromPage({ index: 4, size: 100 }, 0)).toEqual({ n: 300, exact: false });
  });

  it('the pager keeps one more page reachable while the total is a bound', () => {
    expect(pagerTotal({ n: 500, exact: false }, 500)).toBe(1000);
    expect(pagerTotal({ n: 123_456, exact: true }, 500)).toBe(123_456);
  });

  it('asks for the count only after a full page of a filter whose count is not known', () => {
    const page = { index: 1, size: 20 };
    expect(totalAfterPage(page, 7, 'k', null)).toEqual({
      total: { n: 7, exact: true },
      known: { key: 'k', n: 7 },
      ask: false,
    });
    expect(totalAfterPage(page, 20, 'k', null)).toEqual({
      total: { n: 20, exact: false },
      known: null,
      ask: true,
    });
    // Another page or sort of the same filter keeps the count it already has.
    expect(totalAfterPage({ index: 2, size: 20 }, 20, 'k', { key: 'k', n: 95 })).toEqual({
      total: { n: 95, exact: true },
      known: { key: 'k', n: 95 },
      ask: false,
    });
    // A new filter (or a reload after a save) counts again.
    expect(totalAfterPage(page, 20, 'k2', { key: 'k', n: 95 }).ask).toBe(true);
  });

  it('the count call carries the same filter, one row and count', () => {
    const q = { field: 'name', type: 'text', opt: 'contain', value: 'a' };
    expect(countBody(q)).toEqual({ query: q, page: { index: 1, size: 1 }, count: true });
    expect(countBody(undefined)).toEqual({ page: { index: 1, size: 1 }, count: true });
  });
});
