import { $updateReturning } from '../../data/records.ts';
import { type Executor, metaFor } from '../context.ts';
import { outputRead } from '../reads.ts';
import { idOf, mapValues } from './mapping.ts';

/**
 * Changes the mapped fields of one record; answers the record as it now is. Rows are read only
 * where someone looks at them: before and after in a test run (what would change), for a trigger on
 * the table, and after when a later expression reads this step's output (else it answers `{_id}`
 * and the values written).
 */
export const update: Executor = async (step, ctx) => {
  const meta = metaFor(ctx, step);
  const id = idOf(ctx, step._procedure.id);
  const values = mapValues(ctx, step._procedure.values);
  const want = { before: ctx.test, after: ctx.test || outputRead(ctx.doc, step._handle) };
  const { before, after } = await $updateReturning(ctx.trx, meta, id, values, ctx.hooks, want);
  ctx.changes.push({ step: step._handle, entity: meta.entity.id, op: 'update', id, before, after });
  return after;
};
