import { type Executor, evalExpr, ReturnSignal } from '../context.ts';

/** Ends the run; its value is the run's output. */
export const returnStep: Executor = (step, ctx) => {
  throw new ReturnSignal(evalExpr(ctx, step._procedure.value, 'value') ?? null);
};
