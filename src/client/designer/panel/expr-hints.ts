/** Completion hints of the expression input: scope roots, widget ids, function names. */
import { FUNCTION_NAMES } from '../../../shared/expr/index.ts';

export const SCOPE_ROOTS = ['user', 'params', 'state', 'widgets', 'record'] as const;

export interface Hint {
  /** Text that replaces the word being typed. */
  insert: string;
  kind: 'scope' | 'widget' | 'function' | 'variable';
  detail?: string;
}

/** The identifier path being typed at the end of `text` (e.g. `widgets.b` in `1 + widgets.b`). */
export function currentWord(text: string): string {
  const m = /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$]?[\w$]*)*$/.exec(text);
  return m ? m[0] : '';
}

/** Hints for the word at the end of `text`; all roots and functions when nothing is typed yet. */
export function exprHints(text: string, widgets: { id: string; name?: string; kind: string }[]): Hint[] {
  const word = currentWord(text);
  const all: Hint[] = [
    ...SCOPE_ROOTS.map((r) => ({ insert: r, kind: 'scope' as const })),
    ...widgets.map((w) => ({
      insert: `widgets.${w.id}`,
      kind: 'widget' as const,
      detail: w.name ? `${w.name} (${w.kind})` : w.kind,
    })),
    ...FUNCTION_NAMES.map((f) => ({ insert: `${f}(`, kind: 'function' as const })),
  ];
  const lower = word.toLowerCase();
  return all.filter((h) => h.insert.toLowerCase().startsWith(lower) && h.insert !== word).slice(0, 50);
}

/**
 * Hints from a given list of readable variables (a program step's scope: `params.qty`, `state.find1`)
 * instead of the page's roots and widgets, plus the functions.
 */
export function variableHints(text: string, vars: { path: string; detail?: string }[]): Hint[] {
  const word = currentWord(text).toLowerCase();
  const all: Hint[] = [
    ...vars.map((v) => ({
      insert: v.path,
      kind: 'variable' as const,
      detail: v.detail ?? v.path.split('.')[0],
    })),
    ...FUNCTION_NAMES.map((f) => ({ insert: `${f}(`, kind: 'function' as const })),
  ];
  return all
    .filter((h) => h.insert.toLowerCase().startsWith(word) && h.insert.toLowerCase() !== word)
    .slice(0, 50);
}

/** `text` with the word at its end replaced by the hint. */
export function applyHint(text: string, hint: Hint): string {
  return text.slice(0, text.length - currentWord(text).length) + hint.insert;
}

/** An expression source that evaluates to a literal value (used when a prop switches to fx). */
export function literalToExpr(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return '';
}
