/**
 * Saved filters outlive the fields they name: a field is renamed (its code changes), removed, or
 * removed and made again with another type. A saved condition that no longer fits the table is
 * stale; a view leaves it out, says so, and applies the rest (src/server/data/view-service.ts marks
 * them when it lists the filters, the data view shows the notice).
 */
import {
  type ConditionField,
  conditionsQuery,
  operatorsOfType,
  queryTypeOfType,
} from './query/conditions.ts';
import { normalize } from './query/normalize.ts';

/** `field`: the table has no such field (for this user); `type`: its operator or value no longer fits. */
export type StaleReason = 'field' | 'type';

export interface SavedConditionLike {
  field: string;
  opt: string;
  value?: unknown;
}

export interface StaleCondition extends SavedConditionLike {
  reason: StaleReason;
}

/** The conditions that still fit the fields, and those that do not (with why), in their order. */
export function splitStale<C extends SavedConditionLike>(
  conditions: readonly C[],
  fields: readonly ConditionField[],
  now = Date.now(),
): { fresh: C[]; stale: StaleCondition[] } {
  const fresh: C[] = [];
  const stale: StaleCondition[] = [];
  const mark = (c: C, reason: StaleReason) =>
    stale.push({ field: c.field, opt: c.opt, ...(c.value === undefined ? {} : { value: c.value }), reason });
  for (const c of conditions) {
    const f = fields.find((x) => x.key === c.field);
    const qt = f ? queryTypeOfType(f.type) : undefined;
    if (!f || !qt) {
      mark(c, 'field');
      continue;
    }
    if (!operatorsOfType(f.type).includes(c.opt)) {
      mark(c, 'type');
      continue;
    }
    // The value as the query language takes it for the field's type today (what the server checks).
    const query = conditionsQuery([{ ...c, id: 0 }], 'and', [f]);
    if (query !== undefined && !normalize({ query }, { now, fields: { [f.key]: qt } }).ok) mark(c, 'type');
    else fresh.push(c);
  }
  return { fresh, stale };
}
