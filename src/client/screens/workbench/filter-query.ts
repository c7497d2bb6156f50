/** The grid's filter conditions and the query JSON they become (src/shared/query/README.md). */
import { queryTypeOfField } from '../../../shared/api/fields.ts';
import { DATE_PRESETS, OPERATORS, type FieldType as QueryType } from '../../../shared/query/operators.ts';
import type { Field } from '../../api/workbench.ts';

/** One row of the filter builder. `opt` 'preset' (dates) carries the preset name as its value. */
export interface Condition {
  id: number;
  field: string;
  opt: string;
  value?: unknown;
}

export type Match = 'and' | 'or';

/** The query type of a field (src/shared/api/fields.ts: the server's too); images are filtered as text. */
export const queryTypeOf = (f: Pick<Field, '_type'>): QueryType | undefined => queryTypeOfField(f._type);

/** Operators offered for a field (dates add the relative periods). */
export function operatorsOf(f: Pick<Field, '_type'>): string[] {
  const qt = queryTypeOf(f);
  if (!qt) return [];
  const ops: string[] = [...OPERATORS[qt]];
  return qt === 'date' ? [...ops, 'preset'] : ops;
}

export const NO_VALUE = new Set(['isnull', 'notnull']);
export { DATE_PRESETS };

function hasValue(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return false;
  if (Array.isArray(v)) return v.length > 0 && v.some((x) => x !== null && x !== undefined && x !== '');
  return true;
}

/** Conditions that are complete enough to send. */
export function complete(conds: readonly Condition[], fields: readonly Field[]): Condition[] {
  return conds.filter((c) => {
    const f = fields.find((x) => x._field === c.field);
    return f && queryTypeOf(f) && c.opt && (NO_VALUE.has(c.opt) || hasValue(c.value));
  });
}

/** The `query` of a data call; undefined when nothing filters. */
export function toQuery(conds: readonly Condition[], match: Match, fields: readonly Field[]): unknown {
  const clauses = complete(conds, fields).map((c) => {
    const f = fields.find((x) => x._field === c.field)!;
    const type = queryTypeOf(f)!;
    if (c.opt === 'preset') return { field: c.field, type, opt: c.value };
    if (NO_VALUE.has(c.opt)) return { field: c.field, type, opt: c.opt };
    return { field: c.field, type, opt: c.opt, value: c.value };
  });
  if (clauses.length === 0) return undefined;
  return match === 'or' ? { $or: clauses } : { $and: clauses };
}
