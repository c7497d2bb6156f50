import type { FlowStep } from '../../../shared/program/index.ts';
import { type Executor, evalExpr } from '../context.ts';

/** Runs `yes` when the expression is truthy, else `no`; answers which branch ran. */
export const condition: Executor = async (step, ctx) => {
  const yes = Boolean(evalExpr(ctx, step._procedure.if, 'if'));
  await ctx.runSteps(((yes ? step._procedure.yes : step._procedure.no) ?? []) as FlowStep[]);
  return yes;
};
