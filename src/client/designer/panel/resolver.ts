/**
 * The ajv resolver of the generated panel: a kind's props are checked with the registry's compiled
 * props schema (widgets/validate.ts, bindings and expression syntax included), and the issues come back
 * keyed by form path (`list.2.value`) in react-hook-form's nested error shape.
 */
import { useSyncExternalStore } from 'react';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import { pageValidator } from '../../../../widgets/index.ts';
import { checkExpr } from '../../../shared/expr/index.ts';

export interface PathError {
  /** Dotted form path: `text`, `list.2.value`. */
  path: string;
  message: string;
  keyword?: string;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON pointer → dotted path, dropping a trailing `$expr` (the error belongs to the bound prop). */
export function pointerToPath(pointer: string): string {
  const segs = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (segs.at(-1) === '$expr') segs.pop();
  return segs.join('.');
}

function exprMessage(v: unknown): string | undefined {
  if (!isObj(v) || typeof v.$expr !== 'string') return undefined;
  if (!v.$expr.trim()) return 'expression is empty';
  const r = checkExpr(v.$expr);
  return r.ok ? undefined : r.error.message;
}

function valueAt(values: unknown, path: string): unknown {
  let node = values;
  for (const seg of path ? path.split('.') : []) {
    if (Array.isArray(node)) node = node[Number(seg)];
    else if (isObj(node)) node = node[seg];
    else return undefined;
  }
  return node;
}

/**
 * A top-level prop holding a plain value also fails the binding branch of its anyOf; the registry's
 * filter does not see that branch through the $ref, so its errors ("must be object", missing `$expr`)
 * are dropped here: the value's own branch reports what is wrong.
 */
function fromBindingBranch(
  e: { keyword?: string; message: string },
  path: string,
  values: Record<string, unknown>,
) {
  if (path.includes('.') || !path) return false;
  const v = values[path];
  if (isObj(v) && '$expr' in v) return false;
  return (
    (e.keyword === 'type' && e.message === 'must be object') ||
    (e.keyword === 'required' && e.message.includes("'$expr'")) ||
    (e.keyword === 'additionalProperties' && isObj(v))
  );
}

/** Validates a kind's props; one error per path (the first), expression errors in the evaluator's words. */
export function validateKindProps(kind: string, values: Record<string, unknown>): PathError[] {
  const r = pageValidator().validateProps(kind, values);
  if (!r) return [{ path: '', message: `unknown widget kind ${kind}` }];
  if (r.ok) return [];
  const out = new Map<string, PathError>();
  for (const e of r.errors) {
    if (e.keyword === 'required' && e.path === '/') continue;
    const path = pointerToPath(e.path);
    if (fromBindingBranch(e, path, values)) continue;
    if (out.has(path)) continue;
    const expr = exprMessage(valueAt(values, path));
    out.set(path, { path, message: expr ?? e.message, keyword: e.keyword });
  }
  return [...out.values()];
}

/** Errors in react-hook-form's nested shape. */
export function toFieldErrors(errors: PathError[]): FieldErrors {
  const root: Record<string, unknown> = {};
  for (const e of errors) {
    const segs = e.path ? e.path.split('.') : ['root'];
    let node = root;
    segs.forEach((seg, i) => {
      if (i === segs.length - 1) {
        if (!node[seg]) node[seg] = { type: e.keyword ?? 'schema', message: e.message };
        return;
      }
      if (!isObj(node[seg])) node[seg] = {};
      node = node[seg] as Record<string, unknown>;
    });
  }
  return root as FieldErrors;
}

/** A react-hook-form resolver over a kind's compiled props schema. */
export function kindResolver(kind: string): Resolver<FieldValues> {
  return async (values) => {
    const errors = validateKindProps(kind, values as Record<string, unknown>);
    return errors.length ? { values: {}, errors: toFieldErrors(errors) } : { values, errors: {} };
  };
}

/** Errors of one top-level prop (its own and its rows'), for the panel to show beside it. */
export function errorsUnder(errors: PathError[], key: string): PathError[] {
  return errors.filter((e) => e.path === key || e.path.startsWith(`${key}.`));
}

let warming = false;
let checksDue = false;
const dueListeners = new Set<() => void>();

/**
 * Whether the panels' own checks of what was loaded may run (an edit checks at once regardless):
 * once the canvas is filled in (warmPanelChecks), so that opening the designer never waits on the
 * registry validator's compile.
 */
export function usePanelChecksDue(): boolean {
  return useSyncExternalStore(
    subscribeDue,
    () => checksDue,
    () => checksDue,
  );
}
function subscribeDue(l: () => void) {
  dueListeners.add(l);
  return () => {
    dueListeners.delete(l);
  };
}

/**
 * Compiles the registry's checks while the thread is idle, one per idle slot, so that the panel of a
 * kind not selected before does not compile that kind's schema first (each check otherwise compiles
 * on first use). Once per tab; a no-op where there is no window.
 */
export function warmPanelChecks(): void {
  if (warming || typeof window === 'undefined') return;
  warming = true;
  type Deadline = { timeRemaining(): number };
  const idle = (cb: (d: Deadline) => void) =>
    typeof window.requestIdleCallback === 'function'
      ? window.requestIdleCallback(cb, { timeout: 2000 })
      : window.setTimeout(() => cb({ timeRemaining: () => 10 }), 50);
  let steps: (() => void)[] | null = null;
  const run = (d: Deadline) => {
    if (!checksDue) {
      checksDue = true;
      for (const l of [...dueListeners]) l();
    }
    steps ??= pageValidator().pendingCompiles();
    while (steps.length && d.timeRemaining() > 4) steps.shift()!();
    if (steps.length) idle(run);
  };
  idle(run);
}
