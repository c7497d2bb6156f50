/**
 * An action type: its `type` (the `const` of its branch in schemas/events.schema.json, which validates
 * it and gives the events editor its fields), what a new one starts with, and `perform`. The field
 * readers below give every action the same reading of bindings, texts and references.
 */
import { type ExprScope, resolveValue } from '../../../shared/expr/index.ts';
import { type Action, ActionError, type ActionHost } from './host.ts';

/** What `perform` gets besides the action itself. */
export interface ActionContext {
  host: ActionHost;
  /** The scope of this action's expressions (read again before each action of a list). */
  scope: ExprScope;
  /** What the widget sent with the event (a form's values). */
  payload?: unknown;
}

export interface ActionDef<T extends string = string> {
  /** The stored `type`, camelCase; the file is its kebab-case name (openPage → open-page.ts). */
  type: T;
  /** Fields a new action starts with in the events editor; required ones stay missing, so the editor names them. */
  initial?: Readonly<Record<string, unknown>>;
  /** Carries the action out. Throws (an ActionError, or the host's coded error) to stop the list. */
  perform(a: Action, ctx: ActionContext): Promise<void> | void;
}

const TYPE = /^[a-z][A-Za-z0-9]{0,40}$/;

/** Declares an action type (the registry lists the result); the type must be a camelCase name. */
export function defineAction<T extends string>(def: ActionDef<T>): ActionDef<T> {
  if (!TYPE.test(def.type)) throw new Error(`action type ${def.type} must be camelCase`);
  return Object.freeze(def);
}

/** A required reference field (a page, program, widget or form id); missing → ActionError. */
export function refField(a: Action, key: string): string {
  const v = a[key];
  if (typeof v !== 'string' || !v) throw new ActionError(`${a.type}: ${key} is missing`, a.type);
  return v;
}

/** A text field (literal or binding) as shown text; objects as JSON, nothing as ''. */
export function textField(v: unknown, scope: ExprScope): string {
  const r = resolveValue(v, scope);
  if (r === null || r === undefined) return '';
  return typeof r === 'object' ? JSON.stringify(r) : String(r);
}

/** An optional text field: resolved when it is a non-empty string, else undefined. */
export function optionalText(v: unknown, scope: ExprScope): string | undefined {
  return typeof v === 'string' && v ? textField(v, scope) : undefined;
}

/** A params map with each value resolved (bindings evaluated); anything else gives {}. */
export function paramsField(v: unknown, scope: ExprScope): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return out;
  for (const [k, p] of Object.entries(v)) out[k] = resolveValue(p, scope);
  return out;
}
