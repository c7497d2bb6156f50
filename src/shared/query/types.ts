/**
 * Shapes of the query language. The wire shape (`QueryInput`) is what clients send; `normalize`
 * turns it into a `NormalizedQuery`, the only shape the evaluator and the SQL compilers accept.
 *
 * Wire shape (all keys optional):
 *   {
 *     query: { $and?: Node[], $or?: Node[] }      // or a bare Node[] meaning $and
 *     sort:  [{ field, order: 'asc' | 'desc' }]
 *     page:  { index: 1, size: 20 }               // 1-based
 *     all:   false                                // true: first 10,000 rows, page ignored
 *     count: false                                // true: also answer the total match count
 *     empty: false                                // true: an empty `_id` clause does not empty the answer
 *   }
 *   Node   = Group | Clause
 *   Clause = { field, type, opt, value? }
 * A group holding both $and and $or means: all of $and AND any of $or.
 */
import type { QueryError } from './error.ts';
import type { DatePreset, FieldType } from './operators.ts';

export interface ClauseInput {
  field: string;
  type: FieldType;
  opt: string;
  value?: unknown;
}

export interface GroupInput {
  $and?: Array<GroupInput | ClauseInput>;
  $or?: Array<GroupInput | ClauseInput>;
}

export interface SortInput {
  field: string;
  order?: 'asc' | 'desc';
}

export interface QueryInput {
  query?: GroupInput | Array<GroupInput | ClauseInput>;
  sort?: SortInput[];
  page?: { index?: number; size?: number };
  all?: boolean;
  count?: boolean;
  empty?: boolean;
}

// ---- normalized ----

export type TextOp = 'contain' | 'notcontain' | 'eq' | 'ne' | 'start' | 'end';
export type NumberOp = 'eq' | 'ne' | 'gt' | 'lt' | 'gte' | 'lte';

/** Leaf predicates after normalization. Null/empty values never satisfy any op but `isnull`. */
export type Pred =
  | { kind: 'text'; field: string; op: TextOp; value: string }
  | { kind: 'number'; field: string; op: NumberOp; value: number }
  /** Inclusive [lo, hi] with lo < hi; `notbetween` is v < lo or v > hi. */
  | { kind: 'number'; field: string; op: 'between' | 'notbetween'; value: [number, number] }
  /** Half-open epoch-ms range from <= v < to; a null end is open. `out` is the non-null complement. */
  | { kind: 'date'; field: string; op: 'in' | 'out'; from: number | null; to: number | null }
  | { kind: 'time'; field: string; op: 'eq'; value: string }
  /** relate: value in ids; collection: any element in ids; _id: id in ids. */
  | { kind: 'relate' | 'collection' | '_id'; field: string; op: 'in'; value: string[] }
  | { kind: '_id'; field: string; op: 'notin'; value: string[] }
  /** A yes/no column (stored 1 / 0). */
  | { kind: 'boolean'; field: string; op: 'eq'; value: boolean }
  /** A single option: its value is (not) one of these. */
  | { kind: 'option'; field: string; op: 'in' | 'notin'; value: string[] }
  /** A multiple option: its list holds any / all / none of these. */
  | { kind: 'options'; field: string; op: 'hasany' | 'hasall' | 'hasnone'; value: string[] }
  /** Emptiness test; `type` says what empty means for the column (see compare.ts readCell). */
  | { kind: 'null'; type: NullableType; field: string; op: 'isnull' | 'notnull' };

export type NullableType = Exclude<FieldType, '_id' | 'time'>;

export type Cond =
  | Pred
  | { kind: 'and'; items: Cond[] }
  | { kind: 'or'; items: Cond[] }
  /** Matches no row (an unresolvable `$$USER`, an empty `_id` inside an $or). */
  | { kind: 'false' };

export interface SortKey {
  field: string;
  order: 'asc' | 'desc';
}

export interface NormalizedQuery {
  /** null = every row. */
  where: Cond | null;
  /** Explicit keys; `_id` ascending is always appended as the final tie-break. */
  sort: SortKey[];
  offset: number;
  limit: number;
  count: boolean;
  /** The empty-`_id` short-circuit fired: answer no rows (and count 0) without querying. */
  nothing: boolean;
}

export type UserLike = { _id: string } & Record<string, unknown>;

export interface QueryContext {
  /** Current instant in epoch ms; relative presets resolve against it. */
  now: number;
  /** IANA zone for day boundaries; default TIME_ZONE (Asia/Shanghai). */
  timeZone?: string;
  /** Current user for `$$USER` and `$$USER@field`; absent → those clauses match nothing. */
  user?: UserLike | null;
  /** When given, clauses and sort keys must name these fields with these types. */
  fields?: FieldMap;
}

/** Field name → query type. `_id` is implicit. */
export type FieldMap = Record<string, FieldType>;

export type NormalizeResult = { ok: true; query: NormalizedQuery } | { ok: false; error: QueryError };

export type { DatePreset };
