import { normalizeOrThrow } from '../../../shared/query/index.ts';
import { queryRecords } from '../../data/records.ts';
import { type Executor, metaFor, resolveBindings } from '../context.ts';

/** Clauses may leave out `type`: it is the field's query type (the data calls ask for it). */
function typed(node: unknown, types: Record<string, string>): unknown {
  if (Array.isArray(node)) return node.map((n) => typed(n, types));
  if (typeof node !== 'object' || node === null) return node;
  const o = node as Record<string, unknown>;
  if (Array.isArray(o.$and) || Array.isArray(o.$or)) {
    return {
      ...o,
      ...(o.$and ? { $and: typed(o.$and, types) } : {}),
      ...(o.$or ? { $or: typed(o.$or, types) } : {}),
    };
  }
  if (typeof o.field === 'string' && o.type === undefined && types[o.field])
    return { ...o, type: types[o.field] };
  return o;
}

/**
 * Rows of a table matching a filter (values may be expressions), at most `size`, in the table's own
 * order (queryRecords `tableOrder`: the plan a hand-written query gets, no `_id` index walk or sort).
 */
export const query: Executor = async (step, ctx) => {
  const meta = metaFor(ctx, step);
  const p = step._procedure as { where?: unknown; size?: number };
  const where = p.where === undefined ? undefined : resolveBindings(ctx, p.where, 'where');
  const q = normalizeOrThrow(
    {
      ...(where === undefined ? {} : { query: typed(where, meta.queryTypes as Record<string, string>) }),
      page: { index: 1, size: p.size ?? 100 },
    },
    { now: Date.now(), user: ctx.user, fields: meta.queryTypes },
  );
  return (await queryRecords(ctx.trx, ctx.dialect, meta, q, { tableOrder: true })).data;
};
