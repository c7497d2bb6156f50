/**
 * A show request (the end user's paging, extra filters and sort, and parameter values) read against
 * a plan: the dataset's own filter and the caller's, both normalized by the query language.
 */
import { E } from '../errors.ts';
import { QueryError } from '../query/error.ts';
import { normalizeOrThrow } from '../query/normalize.ts';
import type { Cond, NormalizedQuery, QueryContext } from '../query/types.ts';
import type { DatasetPlan, OutputColumn } from './types.ts';
import { columnFieldMap, outputFieldMap, substituteParams } from './validate.ts';

export interface ShowRequest {
  params?: unknown;
  query?: unknown;
  sort?: unknown;
  page?: unknown;
  count?: unknown;
  all?: unknown;
}

export interface ShowPlan {
  /** The dataset's filter with parameters and `$$USER` resolved (over column keys). */
  where: NormalizedQuery;
  /** The caller's filter, sort and page (over the output keys they may see). */
  extra: NormalizedQuery;
  /** Output columns sent: hidden ones left out for end users. */
  output: OutputColumn[];
  /** Order: the caller's keys, else the dataset's, then the tie-break. */
  sort: { key: string; order: 'asc' | 'desc' }[];
}

function usesId(c: Cond | null): boolean {
  if (!c) return false;
  if (c.kind === 'and' || c.kind === 'or') return c.items.some(usesId);
  return c.kind !== 'false' && c.field === '_id';
}

export function planShow(
  plan: DatasetPlan,
  request: ShowRequest,
  ctx: Omit<QueryContext, 'fields'>,
  opts: { showHidden: boolean },
): ShowPlan {
  const output = opts.showHidden ? plan.output : plan.output.filter((o) => !o.hidden);
  const where = normalizeOrThrow(
    { query: substituteParams(plan.where ?? undefined, plan.params, request.params) },
    { ...ctx, fields: columnFieldMap(plan) },
  );
  const { params: _p, ...rest } = request;
  void _p;
  const extra = normalizeOrThrow(rest, { ...ctx, fields: outputFieldMap(output) });
  if (usesId(extra.where) || extra.sort.some((s) => s.field === '_id'))
    throw new QueryError(E.DATASET_INVALID, 'query', 'dataset rows are filtered and sorted by their columns');
  const sort = extra.sort.length
    ? extra.sort.map((s) => ({ key: s.field, order: s.order }))
    : plan.sort.filter((s) => output.some((o) => o.key === s.key));
  return { where, extra, output, sort };
}

/** Keys that make the order total after the chosen sort: group keys, or the row's ids. */
export function tieBreak(plan: DatasetPlan): string[] {
  if (plan.grouped) return [...plan.group];
  return ['_id', ...plan.joins.map((_, i) => `__j${i}`)];
}
