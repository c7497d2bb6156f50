/**
 * The action runner: an event's ordered action list (schemas/events.schema.json), run one after the
 * other. An action whose `when` is false is skipped; the first failing action stops the list and
 * shows an error notice. Each action type is a file of ./actions/ listed in ./actions/registry.ts;
 * everything the actions touch goes through the host, so the runner is plain code (unit-tested) and
 * the page renderer, the modal stack and the sandbox supply the effects.
 */
import { type ExprScope, isBinding, resolveValue } from '../../shared/expr/index.ts';
import { type Action, ActionError, type ActionHost } from './actions/host.ts';
import { actionDef } from './actions/registry.ts';

export type { ActionContext, ActionDef } from './actions/define.ts';
export {
  type Action,
  ActionError,
  type ActionHost,
  type ModalRequest,
  type NoticeLevel,
} from './actions/host.ts';
export { MODAL_WIDTH_STEPS, snapModalWidth } from './actions/open-modal.ts';
export { ACTIONS, type ActionType, actionDef } from './actions/registry.ts';

/** True when an action's `when` allows it (absent = always; a binding must be truthy). */
export function allowed(when: unknown, scope: ExprScope): boolean {
  if (when === undefined || when === null) return true;
  if (isBinding(when) || typeof when === 'string') return Boolean(resolveValue(when, scope));
  return Boolean(when);
}

/** Runs one action by its registered type. Throws on failure (an unknown type too). */
export async function runAction(
  a: Action,
  host: ActionHost,
  scope: ExprScope,
  payload?: unknown,
): Promise<void> {
  const def = actionDef(a.type);
  if (!def) throw new ActionError(`unknown action ${String(a.type)}`, String(a.type));
  await def.perform(a, { host, scope, payload });
}

/** Codes the request wrapper acts on itself (queue page, limit flag, partner modal). */
const HANDLED_CODES = new Set([102, 104, 105]);

export interface RunResult {
  ran: number;
  skipped: number;
  error?: { index: number; message: string };
}

/**
 * Runs an ordered action list. `extra` adds to the scope (e.g. the clicked row as `record`);
 * `payload` is what the widget sent with the event (a form's values).
 */
export async function runActions(
  list: unknown,
  host: ActionHost,
  opts: { extra?: ExprScope; payload?: unknown; quiet?: boolean } = {},
): Promise<RunResult> {
  const out: RunResult = { ran: 0, skipped: 0 };
  if (!Array.isArray(list)) return out;
  for (let i = 0; i < list.length; i++) {
    const raw = list[i];
    if (typeof raw !== 'object' || raw === null) continue;
    const a = raw as Action;
    const scope = { ...host.scope(), ...opts.extra };
    try {
      if (!allowed(a.when, scope)) {
        out.skipped++;
        continue;
      }
      await runAction(a, host, scope, opts.payload);
      out.ran++;
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      const base = e instanceof Error ? e.message : String(e);
      const message = typeof code === 'number' ? `${code}: ${base}` : base;
      out.error = { index: i, message };
      // Calls answered with 102/104/105 were already acted on by the request wrapper.
      // `quiet`: the caller reports the failure itself (a script's api.runAction rejects instead; the
      // script may catch it, and an uncaught one is reported once by the code command that ran it).
      if (!opts.quiet && !(typeof code === 'number' && HANDLED_CODES.has(code)))
        host.notify('error', message);
      return out;
    }
  }
  return out;
}
