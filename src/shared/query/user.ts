/** `$$USER` and `$$USER@field` substitution (spec "Validation rules"). */
import { FIELD_NAME } from './limits.ts';
import type { UserLike } from './types.ts';

export const UNRESOLVED: unique symbol = Symbol('unresolved $$USER');

const PREFIX = '$$USER';

/**
 * Replaces user tokens in a clause value: a string starting with `$$USER@` becomes that field of
 * the user, any other string starting with `$$USER` the user's id. Array elements are replaced one
 * by one (an array-valued user field is spread into the list). UNRESOLVED when there is no user or
 * no such field: the caller then makes the clause match nothing, never drops it.
 */
export function substituteUser(
  value: unknown,
  user: UserLike | null | undefined,
): { value: unknown; used: boolean } | typeof UNRESOLVED {
  if (!Array.isArray(value)) return substituteOne(value, user);
  // One level only: nested arrays are never valid values, and recursing into them would let a
  // hostile, deeply nested value exhaust the stack.
  let used = false;
  const out: unknown[] = [];
  for (const item of value) {
    const r = substituteOne(item, user);
    if (r === UNRESOLVED) return UNRESOLVED;
    used ||= r.used;
    if (r.used && Array.isArray(r.value)) out.push(...r.value);
    else out.push(r.value);
  }
  return { value: out, used };
}

function substituteOne(value: unknown, user: UserLike | null | undefined) {
  if (typeof value !== 'string' || !value.startsWith(PREFIX)) return { value, used: false };
  if (!user || typeof user._id !== 'string') return UNRESOLVED;
  if (!value.startsWith(`${PREFIX}@`)) return { value: user._id, used: true };
  const field = value.slice(PREFIX.length + 1);
  if (!FIELD_NAME.test(field) || !Object.hasOwn(user, field)) return UNRESOLVED;
  const found = user[field];
  if (found === undefined || found === null) return UNRESOLVED;
  return { value: found, used: true };
}
