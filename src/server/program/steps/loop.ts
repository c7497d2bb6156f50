import type { FlowStep } from '../../../shared/program/index.ts';
import { PROGRAM_LIMITS } from '../../../shared/program/index.ts';
import { AppError, E } from '../../errors.ts';
import { checkClock, type Executor, evalExpr, limitError } from '../context.ts';

/** Runs its steps once per item of a list (bounded); the item is `state.<as>`, its index `state.<as>_index`. */
export const loop: Executor = async (step, ctx) => {
  const list = evalExpr(ctx, step._procedure.over, 'over') ?? [];
  if (!Array.isArray(list)) throw new AppError(E.PROGRAM_INVALID, 'over: expected a list');
  if (list.length > PROGRAM_LIMITS.maxLoopIterations)
    throw limitError(`a loop over ${list.length} items (at most ${PROGRAM_LIMITS.maxLoopIterations})`);
  const as = typeof step._procedure.as === 'string' ? step._procedure.as : 'item';
  const index = `${as}_index`;
  const steps = (step._procedure.steps ?? []) as FlowStep[];
  for (let i = 0; i < list.length; i++) {
    checkClock(ctx);
    ctx.state[as] = list[i];
    ctx.state[index] = i;
    await ctx.runSteps(steps);
  }
  return list.length;
};
