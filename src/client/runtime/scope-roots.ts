/** Which parts of the expression scope a widget's bindings read, so it subscribes to those only. */
import { isBinding } from '../../shared/expr/index.ts';

const ROOTS = ['user', 'params', 'state', 'widgets', 'record'] as const;
export type Root = (typeof ROOTS)[number];
/** One pattern for all roots, built once (every widget of a page asks on its first render). */
const ROOT_WORD = new RegExp(`\\b(?:${ROOTS.join('|')})\\b`, 'g');

/** The scope roots a value's bindings and `{{ }}` templates mention (a cheap over-approximation). */
export function rootsOf(v: unknown, into: Set<Root> = new Set()): Set<Root> {
  let src: string | undefined;
  if (isBinding(v)) src = v.$expr;
  else if (typeof v === 'string' && v.includes('{{')) src = v;
  if (src !== undefined) {
    for (const m of src.matchAll(ROOT_WORD)) into.add(m[0] as Root);
    return into;
  }
  if (Array.isArray(v)) for (const x of v) rootsOf(x, into);
  else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) rootsOf(x, into);
  return into;
}
