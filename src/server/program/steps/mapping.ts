import { evalExpr, type RunContext } from '../context.ts';

/** A step's field mapping evaluated: field code → value. */
export function mapValues(ctx: RunContext, values: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [code, src] of Object.entries((values ?? {}) as Record<string, string>)) {
    const v = evalExpr(ctx, src, `values.${code}`);
    out[code] = v === undefined ? null : v;
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
