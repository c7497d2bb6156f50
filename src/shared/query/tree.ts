/**
 * $and / $or trees. Groups are flattened as they are built: an $and inside an $and (and an $or
 * inside an $or) merges into its parent, a one-item group becomes its item, dropped clauses vanish,
 * and a group left empty is dropped too (no constraint). An `_id` clause without value on the
 * conjunctive spine (reached through $and only) empties the whole answer; inside an $or it is false.
 */
import { type ClauseCtx, EMPTY_ID, normalizeClause } from './clause.ts';
import { invalid, tooComplex } from './error.ts';
import { QUERY_LIMITS } from './limits.ts';
import type { Cond } from './types.ts';
import { isObj, own } from './values.ts';

export interface TreeState {
  ctx: ClauseCtx;
  /** Keep an empty `_id` clause as "dropped" instead of emptying the answer (spec `empty`). */
  allowEmptyId: boolean;
  clauses: number;
  groups: number;
  nothing: boolean;
}

const FALSE: Cond = { kind: 'false' };

/** AND of items: any false → false; nested ands merge; empty → null. */
export function and(items: Array<Cond | null>): Cond | null {
  const out: Cond[] = [];
  for (const c of items) {
    if (!c) continue;
    if (c.kind === 'false') return FALSE;
    if (c.kind === 'and') out.push(...c.items);
    else out.push(c);
  }
  return out.length === 0 ? null : out.length === 1 ? out[0]! : { kind: 'and', items: out };
}

/** OR of items: false items vanish (all false → false); nested ors merge; empty → null. */
export function or(items: Array<Cond | null>): Cond | null {
  const out: Cond[] = [];
  let sawFalse = false;
  for (const c of items) {
    if (!c) continue;
    if (c.kind === 'false') sawFalse = true;
    else if (c.kind === 'or') out.push(...c.items);
    else out.push(c);
  }
  if (out.length === 0) return sawFalse ? FALSE : null;
  return out.length === 1 ? out[0]! : { kind: 'or', items: out };
}

function list(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) invalid(path, 'expected an array');
  if (v.length > QUERY_LIMITS.maxClauses) tooComplex(path, `more than ${QUERY_LIMITS.maxClauses} items`);
  return v;
}

/** A node: a clause (has `field`), a group, or an array (meaning $and). */
export function walkNode(
  v: unknown,
  path: string,
  depth: number,
  spine: boolean,
  st: TreeState,
): Cond | null {
  if (depth > QUERY_LIMITS.maxDepth) tooComplex(path, `nested deeper than ${QUERY_LIMITS.maxDepth}`);
  if (Array.isArray(v)) return walkGroup({ $and: v }, path, depth, spine, st);
  if (!isObj(v)) invalid(path, 'expected a clause or a group');
  if (!Object.hasOwn(v, 'field')) return walkGroup(v, path, depth, spine, st);
  if (++st.clauses > QUERY_LIMITS.maxClauses)
    tooComplex(path, `more than ${QUERY_LIMITS.maxClauses} clauses`);
  if (Object.hasOwn(v, '$and') || Object.hasOwn(v, '$or')) invalid(path, 'a clause cannot also be a group');
  const leaf = normalizeClause(v, path, st.ctx);
  if (leaf !== EMPTY_ID) return leaf;
  if (st.allowEmptyId) return null;
  if (spine) st.nothing = true;
  return FALSE;
}

function walkGroup(g: Record<string, unknown>, path: string, depth: number, spine: boolean, st: TreeState) {
  if (++st.groups > QUERY_LIMITS.maxClauses) tooComplex(path, `more than ${QUERY_LIMITS.maxClauses} groups`);
  for (const key of Object.keys(g)) {
    if (key !== '$and' && key !== '$or') invalid(`${path}.${key}`, 'unknown key in a group');
  }
  const ands = own(g, '$and');
  const ors = own(g, '$or');
  const a = ands === undefined ? [] : list(ands, `${path}.$and`);
  const o = ors === undefined ? [] : list(ors, `${path}.$or`);
  const andPart = and(a.map((n, i) => walkNode(n, `${path}.$and[${i}]`, depth + 1, spine, st)));
  const orPart = or(
    o.map((n, i) => walkNode(n, `${path}.$or[${i}]`, depth + 1, spine && o.length === 1, st)),
  );
  return and([andPart, orPart]);
}
