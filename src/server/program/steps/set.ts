import { type Executor, evalExpr } from '../context.ts';

/** Sets a variable in `state` (its name, or the step's handle): loops may accumulate in one. */
export const set: Executor = (step, ctx) => {
  const v = evalExpr(ctx, step._procedure.value, 'value') ?? null;
  const name = typeof step._procedure.name === 'string' ? step._procedure.name : step._handle;
  ctx.state[name] = v;
  return v;
};
