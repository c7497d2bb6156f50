/**
 * Row counts of the grid without `count(*)` on the first paint: a page is fetched without its count,
 * and what it shows is either the exact total (a page shorter than its size ends the table) or a
 * lower bound ("≥ n") until a separate count call answers.
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
