/** Pratt parser: tokens to a syntax tree, with a nesting-depth limit against stack exhaustion. */
import type { Node } from './ast.ts';
import { ExprError } from './errors.ts';
import { type Token, tokenize } from './tokenize.ts';

const INFIX: Record<string, number> = {
  '??': 1,
  '||': 2,
  '&&': 3,
  '==': 4,
  '!=': 4,
  '===': 4,
  '!==': 4,
  '<': 5,
  '<=': 5,
  '>': 5,
  '>=': 5,
  '+': 6,
  '-': 6,
  '*': 7,
  '/': 7,
  '%': 7,
};
const UNARY_BP = 8;
const KEYWORDS: Record<string, unknown> = { true: true, false: false, null: null, undefined: undefined };

export interface ParseLimits {
  maxTokens: number;
  maxDepth: number;
}

/** Parses one expression; throws ExprError. */
export function parse(src: string, limits: ParseLimits): Node {
  const toks = tokenize(src, limits.maxTokens);
  let i = 0;
  let depth = 0;
  const peek = (): Token => toks[i]!;
  const next = (): Token => toks[i++]!;
  const isP = (v: string) => peek().type === 'punct' && peek().value === v;
  const expect = (v: string) => {
    if (!isP(v)) throw new ExprError('parse', `expected ${v}`, peek().pos);
    i++;
  };

  function expr(minBp: number): Node {
    if (++depth > limits.maxDepth) throw new ExprError('limit', 'expression nested too deeply', peek().pos);
    let left = prefix();
    for (;;) {
      const t = peek();
      if (t.type !== 'punct') break;
      if (t.value === '?' && minBp === 0) {
        next();
        const then = expr(0);
        expect(':');
        const els = expr(0);
        left = { t: 'cond', test: left, then, else: els };
        continue;
      }
      const bp = INFIX[t.value];
      if (bp === undefined || bp <= minBp) break;
      next();
      const right = expr(bp);
      left = { t: 'binary', op: t.value, left, right, pos: t.pos };
    }
    depth--;
    return left;
  }

  function prefix(): Node {
    const t = next();
    let node: Node;
    if (t.type === 'num') node = { t: 'lit', value: t.num };
    else if (t.type === 'str') node = { t: 'lit', value: t.value };
    else if (t.type === 'ident') {
      if (Object.hasOwn(KEYWORDS, t.value)) node = { t: 'lit', value: KEYWORDS[t.value] };
      else if (isP('(')) {
        next();
        const args: Node[] = [];
        if (!isP(')')) {
          do args.push(expr(0));
          while (isP(',') && next());
        }
        expect(')');
        node = { t: 'call', name: t.value, args, pos: t.pos };
      } else node = { t: 'ident', name: t.value, pos: t.pos };
    } else if (t.type === 'punct' && (t.value === '!' || t.value === '-' || t.value === '+')) {
      node = { t: 'unary', op: t.value, arg: expr(UNARY_BP - 1), pos: t.pos };
      return node;
    } else if (t.type === 'punct' && t.value === '(') {
      node = expr(0);
      expect(')');
    } else if (t.type === 'punct' && t.value === '[') {
      const items: Node[] = [];
      if (!isP(']')) {
        do items.push(expr(0));
        while (isP(',') && next());
      }
      expect(']');
      node = { t: 'array', items };
    } else {
      throw new ExprError('parse', t.type === 'eof' ? 'unexpected end' : `unexpected ${t.value}`, t.pos);
    }
    return postfix(node);
  }

  function postfix(node: Node): Node {
    for (;;) {
      const t = peek();
      if (t.type !== 'punct') return node;
      if (t.value === '.' || t.value === '?.') {
        next();
        const optional = t.value === '?.';
        if (optional && isP('[')) {
          next();
          const prop = expr(0);
          expect(']');
          node = { t: 'member', obj: node, prop, optional, pos: t.pos };
          continue;
        }
        const name = next();
        if (name.type !== 'ident') throw new ExprError('parse', 'expected a property name', name.pos);
        node = { t: 'member', obj: node, prop: { t: 'lit', value: name.value }, optional, pos: t.pos };
      } else if (t.value === '[') {
        next();
        const prop = expr(0);
        expect(']');
        node = { t: 'member', obj: node, prop, optional: false, pos: t.pos };
      } else if (t.value === '(') {
        // Only whitelisted functions called by name; never methods of scope values.
        throw new ExprError('forbidden', 'only built-in functions can be called', t.pos);
      } else return node;
    }
  }

  const root = expr(0);
  if (peek().type !== 'eof') throw new ExprError('parse', `unexpected ${peek().value}`, peek().pos);
  return root;
}
