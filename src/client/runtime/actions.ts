/**
 * The action runner: an event's ordered action list (schemas/events.schema.json), run one after the
 * other. An action whose `when` is false is skipped; the first failing action stops the list and
 * shows an error notice. Everything the actions touch goes through the host, so the runner is plain
 * code (unit-tested) and the page renderer, the modal stack and the sandbox supply the effects.
 */
import { MODAL_WIDTHS } from '../../shared/constants.ts';
import { type ExprScope, isBinding, resolveValue } from '../../shared/expr/index.ts';
import { isSafeUrl } from '../../shared/sanitize.ts';

export type NoticeLevel = 'success' | 'error' | 'info' | 'warning';

export interface ModalRequest {
  page: string;
  params: Record<string, unknown>;
  title?: string;
  width: number;
  /** Replace the whole stack instead of stacking on top. */
  single?: boolean;
  /** Called with the result when the modal closes (by closeModal, its close button, or a reset). */
  onClose?: (result: unknown) => void;
}

/** The effects actions may have. */
export interface ActionHost {
  /** The scope expressions see now (read again before each action, so earlier actions show). */
  scope(): ExprScope;
  openPage(page: string, params: Record<string, unknown>, target: 'self' | 'blank'): void;
  openModal(req: ModalRequest): void;
  closeModal(result: unknown): void;
  navigate(url: string, replace: boolean): void;
  runProgram(program: string, params: Record<string, unknown>): Promise<unknown>;
  refreshWidget(widget: string): Promise<void> | void;
  setValue(target: string, value: unknown): void;
  /** Saves the form widget's values; `values` when the form itself fired the event. */
  submitForm(form: string, values?: Record<string, unknown>): Promise<void>;
  notify(level: NoticeLevel, message: string, title?: string): void;
  runCode(code: string): Promise<void>;
}

export interface Action {
  type: string;
  when?: unknown;
  [k: string]: unknown;
}

export class ActionError extends Error {
  constructor(
    message: string,
    readonly action: string,
  ) {
    super(message);
  }
}

/** The allowed modal widths (339, 535, 600, 810, 900): a requested width snaps to the nearest. */
export const MODAL_WIDTH_STEPS = [
  MODAL_WIDTHS.limit,
  MODAL_WIDTHS.help,
  MODAL_WIDTHS.detail,
  MODAL_WIDTHS.a4,
  MODAL_WIDTHS.export,
] as const;

export function snapModalWidth(width: unknown): number {
  const w = typeof width === 'number' && Number.isFinite(width) ? width : MODAL_WIDTHS.detail;
  let best: number = MODAL_WIDTH_STEPS[0];
  for (const step of MODAL_WIDTH_STEPS) if (Math.abs(step - w) < Math.abs(best - w)) best = step;
  return best;
}

function resolveParams(v: unknown, scope: ExprScope): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return out;
  for (const [k, p] of Object.entries(v)) out[k] = resolveValue(p, scope);
  return out;
}

function text(v: unknown, scope: ExprScope): string {
  const r = resolveValue(v, scope);
  if (r === null || r === undefined) return '';
  return typeof r === 'object' ? JSON.stringify(r) : String(r);
}

function ref(a: Action, key: string): string {
  const v = a[key];
  if (typeof v !== 'string' || !v) throw new ActionError(`${a.type}: ${key} is missing`, a.type);
  return v;
}

/** True when an action's `when` allows it (absent = always; a binding must be truthy). */
export function allowed(when: unknown, scope: ExprScope): boolean {
  if (when === undefined || when === null) return true;
  if (isBinding(when) || typeof when === 'string') return Boolean(resolveValue(when, scope));
  return Boolean(when);
}

/** Runs one action. Throws on failure. */
export async function runAction(
  a: Action,
  host: ActionHost,
  scope: ExprScope,
  payload?: unknown,
): Promise<void> {
  switch (a.type) {
    case 'openPage':
      return host.openPage(
        ref(a, 'page'),
        resolveParams(a.params, scope),
        a.target === 'blank' ? 'blank' : 'self',
      );
    case 'openModal':
      return host.openModal({
        page: ref(a, 'page'),
        params: resolveParams(a.params, scope),
        ...(typeof a.title === 'string' && a.title ? { title: text(a.title, scope) } : {}),
        width: snapModalWidth(a.width),
        ...(a.single === true ? { single: true } : {}),
      });
    case 'closeModal':
      return host.closeModal(resolveValue(a.result, scope));
    case 'navigate': {
      const url = text(a.url, scope);
      if (!url || !isSafeUrl(url)) throw new ActionError(`navigate: unsafe or empty URL`, a.type);
      return host.navigate(url, a.replace === true);
    }
    case 'runProgram':
      await host.runProgram(ref(a, 'program'), resolveParams(a.params, scope));
      return;
    case 'refreshWidget':
      await host.refreshWidget(ref(a, 'widget'));
      return;
    case 'setValue':
      return host.setValue(ref(a, 'target'), resolveValue(a.value, scope));
    case 'submitForm': {
      const values =
        typeof payload === 'object' && payload !== null && !Array.isArray(payload)
          ? (payload as Record<string, unknown>)
          : undefined;
      await host.submitForm(ref(a, 'form'), values);
      return;
    }
    case 'notify': {
      const level: NoticeLevel =
        a.level === 'error' || a.level === 'info' || a.level === 'warning' ? a.level : 'success';
      const title = typeof a.title === 'string' && a.title ? text(a.title, scope) : undefined;
      return host.notify(level, text(a.message, scope), title);
    }
    case 'runCode':
      if (typeof a.code !== 'string') throw new ActionError('runCode: code is missing', a.type);
      await host.runCode(a.code);
      return;
    default:
      throw new ActionError(`unknown action ${String(a.type)}`, String(a.type));
  }
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
