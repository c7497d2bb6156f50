/** The query language: model, defensive normalizer, reference evaluator and summaries. */
export { compareText, readCell } from './compare.ts';
export { QueryError } from './error.ts';
export { evaluate, type QueryAnswer, sortRows } from './evaluate.ts';
export { FIELD_NAME, QUERY_LIMITS } from './limits.ts';
export { normalize, normalizeOrThrow } from './normalize.ts';
export * from './operators.ts';
export { matches } from './predicate.ts';
export { preciseSum, roundHalfAway } from './round.ts';
export * from './summary.ts';
export { normalizeSummary, normalizeSummaryOrThrow } from './summary-spec.ts';
export type * from './types.ts';
