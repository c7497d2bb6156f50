/**
 * Defensive readers of widget props. Bindings may resolve to any type at run time, so renders read
 * props through these instead of trusting the declared shape.
 */

export function str(v: unknown, fallback = ''): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return fallback;
}

export function num(v: unknown, fallback = 0): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : fallback;
}

/** Booleans, including the stored texts "true" and "false". */
export function bool(v: unknown, fallback = false): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return fallback;
}

export function list<T = unknown>(v: unknown): T[] {
  return Array.isArray(v) ? (v as T[]) : [];
}

/** Only string entries (image slides, chart categories). */
export function strings(v: unknown): string[] {
  return list(v).filter((x): x is string => typeof x === 'string');
}

export function nums(v: unknown): number[] {
  return list(v).map((x) => num(x, 0));
}

const HEX = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** A 3- or 6-digit hex colour, or the fallback. */
export function color(v: unknown, fallback: string): string {
  return typeof v === 'string' && HEX.test(v) ? v : fallback;
}

export function obj(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** An option list [{ label, value }] from stored items (strings are taken as both). */
export function options(v: unknown): { label: string; value: string }[] {
  return list(v).flatMap((x) => {
    if (typeof x === 'string') return [{ label: x, value: x }];
    const o = obj(x);
    if (o.value === undefined && o.label === undefined) return [];
    return [{ label: str(o.label, str(o.value)), value: str(o.value, str(o.label)) }];
  });
}
