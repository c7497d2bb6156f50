import { $updateRecord, getRecord } from '../../data/records.ts';
import { type Executor, metaFor } from '../context.ts';
import { idOf, mapValues } from './mapping.ts';

/** Changes the mapped fields of one record; answers the record as it now is. */
export const update: Executor = async (step, ctx) => {
  const meta = metaFor(ctx, step);
  const id = idOf(ctx, step._procedure.id);
  const before = await $updateRecord(ctx.trx, meta, id, mapValues(ctx, step._procedure.values), ctx.hooks);
  const after = await getRecord(ctx.trx, meta, id);
  ctx.changes.push({ step: step._handle, entity: meta.entity.id, op: 'update', id, before, after });
  return after;
};
