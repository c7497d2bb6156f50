/** Datasets: the document, its check against the tables, show requests and the reference evaluator. */
export * from './evaluate.ts';
export * from './show.ts';
export type * from './types.ts';
export { AGG_FNS, EXPR_FNS } from './types.ts';
export * from './validate.ts';
