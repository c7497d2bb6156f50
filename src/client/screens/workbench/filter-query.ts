/** The grid's filter conditions over the workbench's fields (the logic is src/shared/query/conditions.ts). */
import {
  type Condition,
  type ConditionField,
  completeConditions,
  conditionsQuery,
  DATE_PRESETS,
  type Match,
  NO_VALUE,
  operatorsOfType,
  queryTypeOfType,
} from '../../../shared/query/conditions.ts';
import type { FieldType as QueryType } from '../../../shared/query/operators.ts';
import type { Field } from '../../api/workbench.ts';

export type { Condition, Match };
export { DATE_PRESETS, NO_VALUE };

const asCondition = (fields: readonly Field[]): ConditionField[] =>
  fields.map((f) => ({ key: f._field, type: f._type }));

/** The query type of a field (src/shared/api/fields.ts: the server's too); images are filtered as text. */
export const queryTypeOf = (f: Pick<Field, '_type'>): QueryType | undefined => queryTypeOfType(f._type);

/** Operators offered for a field (dates add the relative periods). */
export const operatorsOf = (f: Pick<Field, '_type'>): string[] => operatorsOfType(f._type);

/** Conditions that are complete enough to send. */
export const complete = (conds: readonly Condition[], fields: readonly Field[]): Condition[] =>
  completeConditions(conds, asCondition(fields));

/** The `query` of a data call; undefined when nothing filters. */
export const toQuery = (conds: readonly Condition[], match: Match, fields: readonly Field[]): unknown =>
  conditionsQuery(conds, match, asCondition(fields));
