/** Hidden fields never leave a run unless a step names them. */
import type { RunContext } from './context.ts';

const HIDDEN_ROOTS = 5;

/** A record without the hidden fields of its table (kept when `names` lists them). */
export function visibleRow(
  ctx: Pick<RunContext, 'metas'>,
  row: Record<string, unknown>,
  names?: string[],
): Record<string, unknown> {
  const meta = [...ctx.metas.values()].find((m) => m.entity.id === row.__entity);
  if (!meta) return row;
  const out = { ...row };
  for (const f of meta.fields) {
    if (f.hide === 1 && !names?.includes(f.code)) {
      delete out[f.code];
      delete out[`_${f.code}`];
      delete out[`___${f.code}`];
    }
  }
  return names?.length
    ? Object.fromEntries(Object.entries(out).filter(([k]) => k.startsWith('_') || names.includes(k)))
    : out;
}

/** Any value with the hidden fields of the records inside it removed. */
export function visibleValue(ctx: Pick<RunContext, 'metas'>, v: unknown, depth = 0): unknown {
  if (depth > HIDDEN_ROOTS * 4) return null;
  if (Array.isArray(v)) return v.map((x) => visibleValue(ctx, x, depth + 1));
  if (typeof v === 'object' && v !== null) {
    const o =
      typeof (v as { __entity?: unknown }).__entity === 'string'
        ? visibleRow(ctx, v as Record<string, unknown>)
        : v;
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, visibleValue(ctx, x, depth + 1)]));
  }
  return v;
}
