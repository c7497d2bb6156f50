/**
 * Safe evaluator of bindings: `{ "$expr": "..." }` prop values and `{{ }}` templates in text.
 * Grammar: literals (numbers, 'text', "text", true/false/null, [arrays]); names user, params, state,
 * widgets, record; member access `.x`, `[k]`, `?.x`; unary ! - +; * / %; + -; < <= > >=; == != (strict);
 * && || ??; cond ? a : b; calls of len upper lower round fmtDate sum if. Nothing else: no assignment,
 * no method calls, no prototype access. Never uses eval, Function or `with`; errors are returned as values.
 */
import type { Node } from './ast.ts';
import { ExprError, type ExprErrorCode } from './errors.ts';
import { type ExprScope, run } from './interpret.ts';
import { parse } from './parse.ts';

export { FUNCTION_NAMES, fmtDate } from './functions.ts';
export type { ExprScope } from './interpret.ts';

export const EXPR_LIMITS = {
  maxLength: 2000,
  maxTokens: 500,
  maxDepth: 48,
  maxSteps: 10_000,
  maxString: 100_000,
} as const;

export type ExprResult =
  | { ok: true; value: unknown }
  | { ok: false; error: { code: ExprErrorCode; message: string; pos: number } };

const cache = new Map<string, Node | ExprError>();
const CACHE_MAX = 1000;

function fail(e: unknown): ExprResult {
  if (e instanceof ExprError) return { ok: false, error: { code: e.code, message: e.message, pos: e.pos } };
  // RangeError (stack) or anything unforeseen still becomes a value.
  return { ok: false, error: { code: 'limit', message: e instanceof Error ? e.message : 'failed', pos: -1 } };
}

function compile(src: string): Node | ExprError {
  const hit = cache.get(src);
  if (hit) return hit;
  let out: Node | ExprError;
  try {
    if (src.length > EXPR_LIMITS.maxLength) throw new ExprError('limit', 'expression too long', 0);
    out = parse(src, EXPR_LIMITS);
  } catch (e) {
    out = e instanceof ExprError ? e : new ExprError('parse', String(e));
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(src, out);
  return out;
}

/** Evaluates one expression against a scope. Never throws. */
export function evaluate(src: unknown, scope: ExprScope = {}): ExprResult {
  if (typeof src !== 'string') return fail(new ExprError('type', 'expression must be text'));
  const node = compile(src);
  if (node instanceof ExprError) return fail(node);
  try {
    return { ok: true, value: run(node, scope, EXPR_LIMITS) };
  } catch (e) {
    return fail(e);
  }
}

/** Checks syntax only (for the designer and the validator). */
export function checkExpr(src: string): ExprResult {
  const node = compile(src);
  return node instanceof ExprError ? fail(node) : { ok: true, value: undefined };
}

function display(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') {
    try {
      return JSON.stringify(v);
    } catch {
      return '';
    }
  }
  return String(v);
}

/** Replaces each `{{ expr }}` in text by its value; a failing expression renders as empty text. */
export function renderTemplate(text: string, scope: ExprScope = {}): string {
  if (!text.includes('{{')) return text;
  return text.replace(/\{\{([\s\S]*?)\}\}/g, (_, body: string) => {
    const r = evaluate(body.trim(), scope);
    return r.ok ? display(r.value) : '';
  });
}

/** A prop value bound to an expression. */
export interface Binding {
  $expr: string;
}

export function isBinding(v: unknown): v is Binding {
  return typeof v === 'object' && v !== null && typeof (v as Binding).$expr === 'string';
}

/** Resolves a prop value: bindings are evaluated (undefined on error), text templates filled in. */
export function resolveValue(v: unknown, scope: ExprScope): unknown {
  if (isBinding(v)) {
    const r = evaluate(v.$expr, scope);
    return r.ok ? r.value : undefined;
  }
  return typeof v === 'string' ? renderTemplate(v, scope) : v;
}

/** Resolves every prop of a widget for rendering (bindings evaluated, text templates filled). */
export function resolveProps(props: Record<string, unknown>, scope: ExprScope): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) out[k] = resolveValue(v, scope);
  return out;
}
