import { $insertRecord, getRecord } from '../../data/records.ts';
import { type Executor, metaFor } from '../context.ts';
import { mapValues } from './mapping.ts';

/** A new record of the step's table from its field mapping; answers the record. */
export const create: Executor = async (step, ctx) => {
  const meta = metaFor(ctx, step);
  const id = await $insertRecord(
    ctx.trx,
    meta,
    mapValues(ctx, step._procedure.values),
    ctx.user?._id ?? null,
    ctx.hooks,
  );
  const after = await getRecord(ctx.trx, meta, id);
  ctx.changes.push({ step: step._handle, entity: meta.entity.id, op: 'create', id, before: null, after });
  return after;
};
