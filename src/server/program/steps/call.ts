import { metaOf } from '../../data/meta.ts';
import { getRecord } from '../../data/records.ts';
import { findEntity } from '../../data/schema-service.ts';
import { AppError, E } from '../../errors.ts';
import type { Executor } from '../context.ts';
import { checkInput, findFlow, releasedDoc } from '../service.ts';
import { idOf, mapValues } from './mapping.ts';

/**
 * Runs another program's released version in this run's transaction, one frame deeper (its writes
 * commit or roll back with the caller's; its notices join the caller's outbox). `data` fills its input
 * fields (checked as an end user's input would be), `record` the record of its table it runs on.
 * Answers what its return step returned.
 */
export const call: Executor = async (step, ctx) => {
  const p = step._procedure as { program: string; data?: Record<string, string>; record?: string };
  const row = await findFlow(ctx.trx, ctx.projectId, p.program);
  const doc = releasedDoc(row);
  if (!doc || row.type !== 'program') throw new AppError(E.PROGRAM_NOT_RELEASED, row.name);
  const input = checkInput(doc, mapValues(ctx, p.data));
  let record: Record<string, unknown> | null = null;
  if (p.record) {
    const ref = doc._option._entity;
    if (!ref) throw new AppError(E.PROGRAM_INPUT, `record: ${row.name} has no table to run on`);
    const meta = ctx.metas.get(ref) ?? (await metaOf(ctx.trx, await findEntity(ctx.trx, ctx.projectId, ref)));
    ctx.metas.set(ref, meta);
    record = await getRecord(ctx.trx, meta, idOf(ctx, p.record));
  }
  return ctx.runFlow({ id: row.id, name: row.name, doc }, input, record);
};
