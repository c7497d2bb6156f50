/** Record triggers: the writes to its table that run a program (`_option.trigger: {on: [...]}`). */
export const TRIGGER_OPS = ['create', 'update', 'remove'] as const;
export type TriggerOp = (typeof TRIGGER_OPS)[number];

/** The writes a stored `_option.trigger` names, in the fixed order; none for anything else. */
export function triggerOps(trigger: unknown): TriggerOp[] {
  const on = (trigger as { on?: unknown } | null | undefined)?.on;
  return Array.isArray(on) ? TRIGGER_OPS.filter((o) => on.includes(o)) : [];
}
