/**
 * Filter conditions and a search box as query JSON (README.md here): the builder's rows grid and the
 * end-user table widgets build the `query` of a data call here, so both speak the same language and
 * the server's normalize refuses what neither may send.
 */
import { queryTypeOfField } from '../api/fields.ts';
import { DATE_PRESETS, OPERATORS, type FieldType as QueryType } from './operators.ts';

/** A field as a filter sees it: its code and its field type (`_type`). */
export interface ConditionField {
  key: string;
  type?: string;
}

/** One condition row. `opt` 'preset' (dates) carries the preset name as its value. */
export interface Condition {
  id: number;
  field: string;
  opt: string;
  value?: unknown;
}

export type Match = 'and' | 'or';

export const NO_VALUE: ReadonlySet<string> = new Set(['isnull', 'notnull']);
export { DATE_PRESETS };

/** A search box looks in at most this many text fields (the query takes 200 clauses in all). */
export const SEARCH_FIELDS_MAX = 50;
/** Characters of a search the box sends (the query language refuses strings over 1,000). */
export const SEARCH_MAX = 200;

/** The query type of a field type (src/shared/api/fields.ts); images are filtered as text. */
export const queryTypeOfType = (type: unknown): QueryType | undefined => queryTypeOfField(type);

/** Operators offered for a field type (dates add the relative periods as 'preset'). */
export function operatorsOfType(type: unknown): string[] {
  const qt = queryTypeOfType(type);
  if (!qt) return [];
  const ops: string[] = [...OPERATORS[qt]];
  return qt === 'date' ? [...ops, 'preset'] : ops;
}

function hasValue(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return false;
  if (Array.isArray(v)) return v.length > 0 && v.some((x) => x !== null && x !== undefined && x !== '');
  return true;
}

const fieldOf = (fields: readonly ConditionField[], key: string) => fields.find((f) => f.key === key);

/** Conditions that are complete enough to send. */
export function completeConditions(
  conds: readonly Condition[],
  fields: readonly ConditionField[],
): Condition[] {
  return conds.filter((c) => {
    const f = fieldOf(fields, c.field);
    return f && queryTypeOfType(f.type) && c.opt && (NO_VALUE.has(c.opt) || hasValue(c.value));
  });
}

/** The `query` of the conditions; undefined when nothing filters. */
export function conditionsQuery(
  conds: readonly Condition[],
  match: Match,
  fields: readonly ConditionField[],
): unknown {
  const clauses = completeConditions(conds, fields).map((c) => {
    const type = queryTypeOfType(fieldOf(fields, c.field)?.type)!;
    if (c.opt === 'preset') return { field: c.field, type, opt: c.value };
    if (NO_VALUE.has(c.opt)) return { field: c.field, type, opt: c.opt };
    return { field: c.field, type, opt: c.opt, value: c.value };
  });
  if (clauses.length === 0) return undefined;
  return match === 'or' ? { $or: clauses } : { $and: clauses };
}

/** Field types a search box looks in: text of people's words (images and attachments hold URLs). */
export const SEARCHED_TYPES: ReadonlySet<string> = new Set(['string', 'longtext', 'email', 'phone', 'url']);

/**
 * A search box's query: the text appears in any of the table's text fields (images hold URLs and are
 * left out). Undefined for an empty search; a search with no text field to look in matches nothing.
 */
export function searchQuery(text: string, fields: readonly ConditionField[]): unknown {
  const value = text.trim().slice(0, SEARCH_MAX);
  if (!value) return undefined;
  const texts = fields.filter((f) => SEARCHED_TYPES.has(f.type ?? 'string')).slice(0, SEARCH_FIELDS_MAX);
  if (texts.length === 0) return { field: '_id', type: '_id', opt: 'set', value: [] };
  return { $or: texts.map((f) => ({ field: f.key, type: 'text', opt: 'contain', value })) };
}

/** All of the given queries (undefined ones left out); undefined when none is left. */
export function allOf(...parts: unknown[]): unknown {
  const list = parts.filter((p) => p !== undefined && p !== null);
  if (list.length === 0) return undefined;
  return list.length === 1 ? list[0] : { $and: list };
}
