import { describe, expect, it } from 'vitest';
import { pagerTotal, totalFromPage } from './grid-count.ts';

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
});
