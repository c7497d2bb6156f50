/**
 * The reference evaluator: the meaning of a normalized query over plain rows. Filter, then sort
 * (each key null-first ascending / null-last descending, then `_id` ascending as the final
 * tie-break), then page. `count` is the number of matches before paging.
 */
import { cell, compareSortValues, type Row, sortValue } from './compare.ts';
import { matches } from './predicate.ts';
import type { FieldMap, NormalizedQuery, SortKey } from './types.ts';

export interface QueryAnswer<R extends Row = Row> {
  rows: R[];
  /** Present when the query asked for it. */
  count?: number;
}

/** Orders rows by the keys then by `_id`; a new array, inputs untouched. */
export function sortRows<R extends Row>(rows: readonly R[], keys: SortKey[], fields: FieldMap): R[] {
  const all: SortKey[] = [...keys, { field: '_id', order: 'asc' }];
  const kinds = all.map((k) =>
    k.field === '_id' ? '_id' : Object.hasOwn(fields, k.field) ? fields[k.field] : undefined,
  );
  return [...rows].sort((a, b) => {
    for (let i = 0; i < all.length; i++) {
      const k = all[i]!;
      const c = compareSortValues(
        sortValue(kinds[i], cell(a, k.field)),
        sortValue(kinds[i], cell(b, k.field)),
      );
      if (c !== 0) return k.order === 'desc' ? -c : c;
    }
    return 0;
  });
}

/** Answers `query` over `rows`. */
export function evaluate<R extends Row>(
  rows: readonly R[],
  query: NormalizedQuery,
  fields: FieldMap,
): QueryAnswer<R> {
  const answer: QueryAnswer<R> = { rows: [] };
  if (query.nothing) {
    if (query.count) answer.count = 0;
    return answer;
  }
  const hits = rows.filter((r) => matches(query.where, r));
  answer.rows = sortRows(hits, query.sort, fields).slice(query.offset, query.offset + query.limit);
  if (query.count) answer.count = hits.length;
  return answer;
}
