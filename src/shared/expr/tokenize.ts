/** Tokenizer of the binding-expression language (see ./index.ts for the grammar). */
import { ExprError } from './errors.ts';

export type TokenType = 'num' | 'str' | 'ident' | 'punct' | 'eof';

export interface Token {
  type: TokenType;
  value: string;
  num?: number;
  pos: number;
}

// Longest first, so `===` wins over `==` and `?.` over `?`.
const PUNCTS = [
  '===',
  '!==',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '!',
  '?',
  ':',
  '.',
  ',',
  '(',
  ')',
  '[',
  ']',
];

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '`': '`',
};

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '$';
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

/** Splits source into tokens; throws ExprError (caught by `evaluate`) on a bad character or too many tokens. */
export function tokenize(src: string, maxTokens: number): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (out.length >= maxTokens) throw new ExprError('limit', 'expression has too many tokens', i);
    const start = i;
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1] ?? ''))) {
      while (i < src.length && (isDigit(src[i]!) || src[i] === '.')) i++;
      if (src[i] === 'e' || src[i] === 'E') {
        i++;
        if (src[i] === '+' || src[i] === '-') i++;
        while (i < src.length && isDigit(src[i]!)) i++;
      }
      const text = src.slice(start, i);
      const num = Number(text);
      if (!Number.isFinite(num)) throw new ExprError('parse', `bad number ${text}`, start);
      out.push({ type: 'num', value: text, num, pos: start });
      continue;
    }
    if (isIdentStart(c)) {
      while (i < src.length && (isIdentStart(src[i]!) || isDigit(src[i]!))) i++;
      out.push({ type: 'ident', value: src.slice(start, i), pos: start });
      continue;
    }
    if (c === "'" || c === '"') {
      i++;
      let s = '';
      while (i < src.length && src[i] !== c) {
        if (src[i] === '\\') {
          const e = src[i + 1];
          if (e === undefined) break;
          s += ESCAPES[e] ?? e;
          i += 2;
        } else {
          s += src[i];
          i++;
        }
      }
      if (src[i] !== c) throw new ExprError('parse', 'unterminated string', start);
      i++;
      out.push({ type: 'str', value: s, pos: start });
      continue;
    }
    const p = PUNCTS.find((q) => src.startsWith(q, i));
    if (!p) throw new ExprError('parse', `unexpected character ${JSON.stringify(c)}`, i);
    // `?.5` is a ternary followed by a number, not optional chaining.
    if (p === '?.' && isDigit(src[i + 2] ?? '')) {
      out.push({ type: 'punct', value: '?', pos: i });
      i++;
      continue;
    }
    out.push({ type: 'punct', value: p, pos: i });
    i += p.length;
  }
  out.push({ type: 'eof', value: '', pos: src.length });
  return out;
}
