import { evaluate } from '../../../shared/expr/index.ts';
import { AppError, E } from '../../errors.ts';
import { evalExpr, type RunContext, scopeOf } from '../context.ts';

/** A step's field mapping evaluated: field code → value. */
export function mapValues(ctx: RunContext, values: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const map = (values ?? {}) as Record<string, unknown>;
  for (const code in map) {
    if (!Object.hasOwn(map, code)) continue;
    const src = map[code];
    if (src === undefined || src === '') {
      out[code] = null;
      continue;
    }
    const r = evaluate(src, scopeOf(ctx));
    if (!r.ok) throw new AppError(E.PROGRAM_INVALID, `values.${code}: ${r.error.message}`);
    out[code] = r.value === undefined ? null : r.value;
  }
  return out;
}

/** A record id from an expression: text or a record (its `_id`). */
export function idOf(ctx: RunContext, src: unknown): string {
  const v = evalExpr(ctx, src, 'id');
  if (typeof v === 'object' && v !== null && typeof (v as { _id?: unknown })._id === 'string')
    return (v as { _id: string })._id;
  return typeof v === 'string' ? v : String(v ?? '');
}
