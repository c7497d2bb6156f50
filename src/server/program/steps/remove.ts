import { $removeRecord, getRecord } from '../../data/records.ts';
import { type Executor, metaFor } from '../context.ts';
import { idOf } from './mapping.ts';

/** Removes one record; answers the record as it was. */
export const remove: Executor = async (step, ctx) => {
  const meta = metaFor(ctx, step);
  const id = idOf(ctx, step._procedure.id);
  const before = await getRecord(ctx.trx, meta, id);
  await $removeRecord(ctx.trx, meta, id, ctx.hooks);
  ctx.changes.push({ step: step._handle, entity: meta.entity.id, op: 'remove', id, before, after: null });
  return before;
};
