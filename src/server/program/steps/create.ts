import { $insertReturning } from '../../data/records.ts';
import { type Executor, metaFor } from '../context.ts';
import { outputRead } from '../reads.ts';
import { mapValues } from './mapping.ts';

/**
 * A new record of the step's table from its field mapping; answers the record (read back by the
 * insert when a test run shows it or a later expression reads it, else `{_id}` and the values).
 */
export const create: Executor = async (step, ctx) => {
  const meta = metaFor(ctx, step);
  const values = mapValues(ctx, step._procedure.values);
  const readBack = ctx.test || outputRead(ctx.doc, step._handle);
  const after = await $insertReturning(ctx.trx, meta, values, ctx.user?._id ?? null, ctx.hooks, readBack);
  const id = after._id as string;
  ctx.changes.push({ step: step._handle, entity: meta.entity.id, op: 'create', id, before: null, after });
  return after;
};
