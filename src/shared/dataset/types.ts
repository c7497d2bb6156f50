/**
 * The dataset document (a flow of `_type: dataset`). Wire shape, as stored in the flow's draft and
 * released document:
 *
 *   {
 *     _dataset: {
 *       base: 'orders',                                   // table id or code; alias `t`
 *       joins: [{ as: 'c', from: 't', field: 'customer' }], // along a relate or collection field
 *       columns: [{ key: 'month', expr: { fn: 'month', args: [{ ref: 't.at' }] } }],
 *       where: { query language over column keys; values may be { $param: name } or '$$USER…' },
 *       group: ['month'],
 *       aggregates: [{ key: 'total', fn: 'sum', of: 'amount' }],
 *       sort: [{ key: 'month', order: 'asc' }],
 *       params: [{ name: 'city', type: 'text', default?: 'x' }],
 *     },
 *     _release: { _display: { _entity: [{ key: 'month', title: 'Month' }] } },
 *   }
 */
import type { FieldType } from '../query/operators.ts';

export type ExprInput = { ref: string } | { value: string | number } | { fn: ExprFn; args: ExprInput[] };

/** Functions of computed columns: each has one SQL form on SQLite and on PostgreSQL. */
export const EXPR_FNS = {
  add: { args: ['number', 'number'], out: 'number' },
  sub: { args: ['number', 'number'], out: 'number' },
  mul: { args: ['number', 'number'], out: 'number' },
  /** Division by zero is null. */
  div: { args: ['number', 'number'], out: 'number' },
  neg: { args: ['number'], out: 'number' },
  abs: { args: ['number'], out: 'number' },
  /** Text (text, time or id values) joined; null when any part is null. */
  concat: { args: 'text+', out: 'text' },
  /** Characters (code points). */
  length: { args: ['text'], out: 'number' },
  /** The first non-null argument; all of one type. */
  coalesce: { args: 'same+', out: 'same' },
  /** Calendar parts of a date in Beijing time, as text: 'YYYY', 'YYYY-MM', 'YYYY-MM-DD'. */
  year: { args: ['date'], out: 'text' },
  month: { args: ['date'], out: 'text' },
  day: { args: ['date'], out: 'text' },
} as const;

export type ExprFn = keyof typeof EXPR_FNS;

export const AGG_FNS = ['count', 'sum', 'avg', 'min', 'max', 'distinct'] as const;
export type AggFn = (typeof AGG_FNS)[number];

export interface JoinInput {
  as: string;
  from?: string;
  field: string;
}

export interface ColumnInput {
  key: string;
  expr: ExprInput;
}

export interface AggregateInput {
  key: string;
  fn: AggFn;
  /** The column aggregated; count without it counts rows. */
  of?: string;
}

export interface ParamInput {
  name: string;
  type: 'text' | 'number' | 'date';
  default?: string | number;
}

export interface DatasetInput {
  base: string;
  joins?: JoinInput[];
  columns: ColumnInput[];
  where?: unknown;
  group?: string[];
  aggregates?: AggregateInput[];
  sort?: { key: string; order?: 'asc' | 'desc' }[];
  params?: ParamInput[];
}

export interface DisplayColumn {
  key: string;
  title?: string;
}

/** The stored document of a dataset flow. */
export interface DatasetDocument {
  _dataset: DatasetInput;
  _release: { _display: { _entity: DisplayColumn[] } };
}

/** Value types of dataset columns (query-language types; collections are joined, never shown). */
export type ValueType = Exclude<FieldType, 'collection' | '_id'>;

// ---- resolved against the project's tables ----

export interface CatalogField {
  code: string;
  type: FieldType;
  /** Target table id of a relate or collection field. */
  relate: string | null;
  /** Hidden fields: never shown row by row to end users. */
  hide: boolean;
  /** Storage: column name (scalar) or link table (collection), server side only. */
  id: string;
}

export interface CatalogEntity {
  id: string;
  code: string;
  fields: CatalogField[];
}

/** The tables a dataset may use: looked up by id or code. */
export type Catalog = (ref: string) => CatalogEntity | undefined;

export type Expr =
  | { kind: 'ref'; alias: string; field: CatalogField | '_id' | '_created_at'; type: ValueType }
  | { kind: 'value'; value: string | number; type: ValueType }
  | { kind: 'fn'; fn: ExprFn; args: Expr[]; type: ValueType };

export interface ResolvedJoin {
  alias: string;
  from: string;
  field: CatalogField;
  entity: CatalogEntity;
}

export interface ResolvedColumn {
  key: string;
  expr: Expr;
  type: ValueType;
  /** Its value shows a hidden field row by row. */
  hidden: boolean;
}

export interface ResolvedAggregate {
  key: string;
  fn: AggFn;
  of: string | null;
  type: ValueType;
  hidden: boolean;
}

export interface OutputColumn {
  key: string;
  type: ValueType;
  hidden: boolean;
}

/** A dataset checked against the catalog: what the compiler and the reference evaluator read. */
export interface DatasetPlan {
  base: CatalogEntity;
  joins: ResolvedJoin[];
  columns: ResolvedColumn[];
  /** The wire where (params not yet substituted). */
  where: unknown;
  grouped: boolean;
  group: string[];
  aggregates: ResolvedAggregate[];
  sort: { key: string; order: 'asc' | 'desc' }[];
  params: ParamInput[];
  /** The rows' columns: the columns (not grouped) or group keys then aggregates. */
  output: OutputColumn[];
}
