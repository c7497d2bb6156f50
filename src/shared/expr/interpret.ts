/** Tree-walking interpreter with a step budget. Reads only own data properties of the scope. */
import type { Node } from './ast.ts';
import { ExprError } from './errors.ts';
import { FUNCTIONS } from './functions.ts';

/** What an expression may read. Anything else is a name error. */
export interface ExprScope {
  user?: unknown;
  params?: unknown;
  state?: unknown;
  widgets?: unknown;
  record?: unknown;
}

export const SCOPE_ROOTS = ['user', 'params', 'state', 'widgets', 'record'] as const;
const BLOCKED = new Set(['__proto__', 'constructor', 'prototype', '__defineGetter__', '__lookupGetter__']);

export interface RunLimits {
  maxSteps: number;
  maxString: number;
}

/** One evaluation's budget and scope (module-level functions instead of closures made per run). */
interface Run {
  steps: number;
  scope: ExprScope;
  limits: RunLimits;
}

function member(obj: unknown, key: unknown, pos: number): unknown {
  if (typeof key !== 'string' && typeof key !== 'number')
    throw new ExprError('type', 'bad property key', pos);
  const k = String(key);
  if (BLOCKED.has(k)) throw new ExprError('forbidden', `property ${k} is not accessible`, pos);
  if (typeof obj === 'string') {
    if (k === 'length') return obj.length;
    return /^\d+$/.test(k) ? obj[Number(k)] : undefined;
  }
  if (obj === null || typeof obj !== 'object') return undefined;
  if (Array.isArray(obj) && k === 'length') return obj.length;
  // Own data properties only: no inherited members, no getters that could run code.
  const desc = Object.getOwnPropertyDescriptor(obj, k);
  if (!desc || !('value' in desc)) return undefined;
  return typeof desc.value === 'function' ? undefined : desc.value;
}

function capped(r: Run, s: string, pos: number): string {
  if (s.length > r.limits.maxString) throw new ExprError('limit', 'text result too long', pos);
  return s;
}

function binary(r: Run, op: string, a: unknown, b: unknown, pos: number): unknown {
  switch (op) {
    case '==':
    case '===':
      return a === b || (a == null && b == null);
    case '!=':
    case '!==':
      return !(a === b || (a == null && b == null));
    case '+':
      if (typeof a === 'number' && typeof b === 'number') return a + b;
      if (
        (typeof a === 'string' || typeof a === 'number') &&
        (typeof b === 'string' || typeof b === 'number')
      )
        return capped(r, String(a) + String(b), pos);
      throw new ExprError('type', '+ needs numbers or text', pos);
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const bothNum = typeof a === 'number' && typeof b === 'number';
      const bothStr = typeof a === 'string' && typeof b === 'string';
      if (!bothNum && !bothStr) throw new ExprError('type', `${op} needs two numbers or two texts`, pos);
      const x = a as number | string;
      const y = b as number | string;
      return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
    }
  }
  if (typeof a !== 'number' || typeof b !== 'number') throw new ExprError('type', `${op} needs numbers`, pos);
  if (op === '-') return a - b;
  if (op === '*') return a * b;
  if ((op === '/' || op === '%') && b === 0) throw new ExprError('type', 'division by zero', pos);
  return op === '/' ? a / b : a % b;
}

function ev(r: Run, n: Node): unknown {
  if (++r.steps > r.limits.maxSteps) throw new ExprError('limit', 'expression took too many steps');
  switch (n.t) {
    case 'lit':
      return n.value;
    case 'ident':
      if (!(SCOPE_ROOTS as readonly string[]).includes(n.name))
        throw new ExprError('name', `unknown name ${n.name}`, n.pos);
      return r.scope[n.name as keyof ExprScope];
    case 'member': {
      const obj = ev(r, n.obj);
      if (n.optional && obj == null) return undefined;
      return member(obj, ev(r, n.prop), n.pos);
    }
    case 'array': {
      const out: unknown[] = [];
      for (const item of n.items) out.push(ev(r, item));
      return out;
    }
    case 'cond':
      return ev(r, n.test) ? ev(r, n.then) : ev(r, n.else);
    case 'unary': {
      const v = ev(r, n.arg);
      if (n.op === '!') return !v;
      if (typeof v !== 'number') throw new ExprError('type', `unary ${n.op} needs a number`, n.pos);
      return n.op === '-' ? -v : v;
    }
    case 'binary': {
      if (n.op === '&&') return ev(r, n.left) && ev(r, n.right);
      if (n.op === '||') return ev(r, n.left) || ev(r, n.right);
      if (n.op === '??') return ev(r, n.left) ?? ev(r, n.right);
      return binary(r, n.op, ev(r, n.left), ev(r, n.right), n.pos);
    }
    case 'call': {
      if (n.name === 'if') {
        if (n.args.length < 2)
          throw new ExprError('call', 'if(cond, then, else?) needs 2 or 3 arguments', n.pos);
        return ev(r, n.args[0]!) ? ev(r, n.args[1]!) : n.args[2] ? ev(r, n.args[2]) : undefined;
      }
      if (!Object.hasOwn(FUNCTIONS, n.name)) throw new ExprError('call', `unknown function ${n.name}`, n.pos);
      const args: unknown[] = [];
      for (const a of n.args) args.push(ev(r, a));
      const out = FUNCTIONS[n.name]!(args);
      return typeof out === 'string' ? capped(r, out, n.pos) : out;
    }
  }
}

/**
 * Evaluates a parsed expression. The helpers live at module level: a run allocates one small state
 * object instead of four closures (programs evaluate several expressions per loop item).
 */
export function run(node: Node, scope: ExprScope, limits: RunLimits): unknown {
  return ev({ steps: 0, scope, limits }, node);
}
