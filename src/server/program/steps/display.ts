import { AppError, E } from '../../errors.ts';
import { type Executor, evalExpr, fillTemplate } from '../context.ts';
import { visibleRow } from '../hidden.ts';

/** Shows the user a message and/or rows after the run (hidden fields only when `fields` names them). */
export const display: Executor = (step, ctx) => {
  const p = step._procedure as { message?: string; rows?: string; fields?: string[] };
  const item: { step: string; message?: string; rows?: Record<string, unknown>[] } = { step: step._handle };
  if (p.message) item.message = fillTemplate(ctx, p.message);
  if (p.rows) {
    const v = evalExpr(ctx, p.rows, 'rows') ?? [];
    const list = Array.isArray(v) ? v : [v];
    if (!list.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r)))
      throw new AppError(E.PROGRAM_INVALID, 'rows: expected records');
    item.rows = (list as Record<string, unknown>[]).map((r) => visibleRow(ctx, r, p.fields));
  }
  ctx.display.push(item);
  return item;
};
