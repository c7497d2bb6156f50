import { AppError, E } from '../../errors.ts';
import { type Executor, evalExpr, fillTemplate } from '../context.ts';

const ID = /^[0-9a-f]{24}$/;

/** A socket notice to users and roles, sent only after the run commits (the outbox). */
export const notify: Executor = async (step, ctx) => {
  const p = step._procedure as { message: string; users?: string; roles?: string[] };
  const v = p.users ? (evalExpr(ctx, p.users, 'users') ?? []) : [];
  const list = (Array.isArray(v) ? v : [v]).map((u) =>
    typeof u === 'object' && u !== null ? (u as { _id?: unknown })._id : u,
  );
  if (!list.every((u) => typeof u === 'string' && ID.test(u)))
    throw new AppError(E.PROGRAM_INVALID, 'users: expected user ids');
  const notice = {
    step: step._handle,
    flow: ctx.flowId,
    users: list as string[],
    roles: p.roles ?? [],
    message: fillTemplate(ctx, p.message),
  };
  ctx.outbox.push(notice);
  return notice;
};
