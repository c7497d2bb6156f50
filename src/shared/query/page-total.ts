/**
 * Row totals without `count(*)` on the first paint (DESIGN: never a full count on the critical path):
 * a page is fetched without its count, and what it shows is either the exact total (a page shorter
 * than its size ends the table) or a lower bound ("at least n") until a separate count call answers.
 * The builder's rows grid and the end-user runtime (tables, data sources) both decide here.
 */
export interface Total {
  n: number;
  exact: boolean;
}

/** What one page of `got` rows tells about the total. */
export function totalFromPage(page: { index: number; size: number }, got: number): Total {
  const before = (page.index - 1) * page.size;
  // A short page (empty only when it is the first) ends the table; a full one may not.
  if (got < page.size && (got > 0 || page.index === 1)) return { n: before + got, exact: true };
  return { n: before + got, exact: false };
}

/** The pager's total: a lower bound leaves the next page reachable until the count arrives. */
export function pagerTotal(total: Total, pageSize: number): number {
  return total.exact ? total.n : total.n + pageSize;
}

/** A count already known for one filter (`key`: the filter's identity; sort and page do not change it). */
export interface KnownCount {
  key: string;
  n: number;
}

/**
 * After a page arrived: the total to show now, the count to remember, and whether to ask the server
 * for the count (only when the page gives a bound and no count of this filter is known).
 */
export function totalAfterPage(
  page: { index: number; size: number },
  got: number,
  key: string,
  known: KnownCount | null,
): { total: Total; known: KnownCount | null; ask: boolean } {
  const seen = totalFromPage(page, got);
  if (seen.exact) return { total: seen, known: { key, n: seen.n }, ask: false };
  if (known && known.key === key) return { total: { n: known.n, exact: true }, known, ask: false };
  return { total: seen, known: null, ask: true };
}

/** The body of the separate count call: the same filter, one row, with its count. */
export function countBody<Q>(query: Q | undefined): { query?: Q; page: { index: 1; size: 1 }; count: true } {
  return { ...(query === undefined ? {} : { query }), page: { index: 1, size: 1 }, count: true };
}
