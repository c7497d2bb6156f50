/** Truth of a normalized condition on one row: the meaning every SQL compiler must reproduce. */
import { cell, type Row, readCell } from './compare.ts';
import type { Cond, Pred } from './types.ts';

function text(p: Extract<Pred, { kind: 'text' }>, v: string): boolean {
  switch (p.op) {
    case 'contain':
      return v.includes(p.value);
    case 'notcontain':
      return !v.includes(p.value);
    case 'eq':
      return v === p.value;
    case 'ne':
      return v !== p.value;
    case 'start':
      return v.startsWith(p.value);
    case 'end':
      return v.endsWith(p.value);
  }
}

function number(p: Extract<Pred, { kind: 'number' }>, v: number): boolean {
  if (Array.isArray(p.value)) {
    const [lo, hi] = p.value;
    const inside = v >= lo && v <= hi;
    return p.op === 'between' ? inside : !inside;
  }
  const x = p.value;
  switch (p.op) {
    case 'eq':
      return v === x;
    case 'ne':
      return v !== x;
    case 'gt':
      return v > x;
    case 'lt':
      return v < x;
    case 'gte':
      return v >= x;
    default:
      return v <= x;
  }
}

function pred(p: Pred, row: Row): boolean {
  if (p.kind === 'null') {
    const empty = readCell(p.type, cell(row, p.field)) === null;
    return p.op === 'isnull' ? empty : !empty;
  }
  const v = readCell(p.kind, cell(row, p.field));
  if (v === null) return false; // every value operator needs a value, negated ones included
  switch (p.kind) {
    case 'text':
      return text(p, v as string);
    case 'number':
      return number(p, v as number);
    case 'date': {
      const t = v as number;
      const inside = (p.from === null || t >= p.from) && (p.to === null || t < p.to);
      return p.op === 'in' ? inside : !inside;
    }
    case 'time':
      return v === p.value;
    case 'collection':
      return (v as string[]).some((id) => p.value.includes(id));
    case 'boolean':
      return v === (p.value ? 1 : 0);
    case 'option':
      return p.op === 'in' ? p.value.includes(v as string) : !p.value.includes(v as string);
    case 'options': {
      const list = v as string[];
      if (p.op === 'hasany') return p.value.some((x) => list.includes(x));
      if (p.op === 'hasall') return p.value.every((x) => list.includes(x));
      return !p.value.some((x) => list.includes(x));
    }
    default:
      return p.op === 'notin' ? !p.value.includes(v as string) : p.value.includes(v as string);
  }
}

/** Whether `row` satisfies `cond` (null = no condition). */
export function matches(cond: Cond | null, row: Row): boolean {
  if (cond === null) return true;
  switch (cond.kind) {
    case 'and':
      return cond.items.every((c) => matches(c, row));
    case 'or':
      return cond.items.some((c) => matches(c, row));
    case 'false':
      return false;
    default:
      return pred(cond, row);
  }
}
