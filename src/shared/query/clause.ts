/** One leaf clause `{ field, type, opt, value }` → a clean predicate, null (dropped) or EMPTY_ID. */
import { dateClause } from './clause-date.ts';
import { numberClause, textClause, timeClause } from './clause-scalar.ts';
import { invalid, QueryError } from './error.ts';
import { FIELD_NAME } from './limits.ts';
import { type FieldType, isDatePreset, isFieldType, isOperatorOf } from './operators.ts';
import type { Cond, FieldMap, NullableType, TextOp, UserLike } from './types.ts';
import { substituteUser, UNRESOLVED } from './user.ts';
import { isNoValue, limitStrings, type Obj, own, readFlag, readIds, readString } from './values.ts';

/** A clause on `_id` with no value: the caller short-circuits or drops it (spec `empty` flag). */
export const EMPTY_ID: unique symbol = Symbol('empty _id');
export type LeafResult = Cond | null | typeof EMPTY_ID;

export interface ClauseCtx {
  now: number;
  timeZone: string;
  user: UserLike | null | undefined;
  fields: FieldMap | undefined;
}

const FALSE: Cond = { kind: 'false' };
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/** A field name that is safe as a column reference. */
export function readField(v: unknown, path: string): string {
  const name = readString(v, path);
  if (!FIELD_NAME.test(name) || RESERVED.has(name)) invalid(path, 'not a valid field name');
  return name;
}

function readType(o: Obj, field: string, path: string, fields: FieldMap | undefined): FieldType {
  const type = own(o, 'type');
  if (!isFieldType(type)) invalid(`${path}.type`, 'unknown type');
  if (field === '_id') return '_id';
  if (type === '_id') invalid(`${path}.type`, "type _id is only for field '_id'");
  if (fields) {
    const declared = Object.hasOwn(fields, field) ? fields[field] : undefined;
    if (!declared) invalid(`${path}.field`, 'unknown field');
    if (declared !== type) invalid(`${path}.type`, `field is ${declared}`);
  }
  return type;
}

function byType(
  type: FieldType,
  field: string,
  opt: string,
  value: unknown,
  path: string,
  ctx: ClauseCtx,
): LeafResult {
  switch (type) {
    case 'text':
      return textClause(field, opt as TextOp, value, path);
    case 'number':
      return numberClause(field, opt, value, path);
    case 'date':
      return dateClause(field, opt, value, path, ctx);
    case 'time':
      return timeClause(field, value, path);
    case '_id': {
      if (opt === 'set') return idSet(type, field, value, path) ?? EMPTY_ID;
      const id = readString(value, path);
      if (opt === 'ne') return id === '' ? null : { kind: '_id', field, op: 'notin', value: [id] };
      return id === '' ? EMPTY_ID : { kind: '_id', field, op: 'in', value: [id] };
    }
    case 'boolean':
      return { kind: 'boolean', field, op: 'eq', value: readFlag(value, path) };
    case 'option': {
      const list = readIds(value, path);
      return list.length === 0 ? null : { kind: 'option', field, op: opt as 'in' | 'notin', value: list };
    }
    case 'options': {
      const list = readIds(value, path);
      if (list.length === 0) return null;
      return { kind: 'options', field, op: opt as 'hasany' | 'hasall' | 'hasnone', value: list };
    }
    default:
      return idSet(type, field, value, path);
  }
}

function idSet(
  kind: 'relate' | 'collection' | '_id',
  field: string,
  value: unknown,
  path: string,
): Cond | null {
  const ids = readIds(value, path);
  return ids.length === 0 ? null : { kind, field, op: 'in', value: ids };
}

/** Normalizes one clause object found at `path`. */
export function normalizeClause(o: Obj, path: string, ctx: ClauseCtx): LeafResult {
  const field = readField(own(o, 'field'), `${path}.field`);
  const type = readType(o, field, path, ctx.fields);
  let opt = own(o, 'opt');
  let raw = own(o, 'value');
  if (type === 'date' && isDatePreset(opt)) [opt, raw] = ['eq', opt];
  if (typeof opt !== 'string' || !isOperatorOf(type, opt))
    invalid(`${path}.opt`, `unknown operator for ${type}`);
  if (opt === 'isnull' || opt === 'notnull') {
    return { kind: 'null', type: type as NullableType, field, op: opt };
  }
  const vpath = `${path}.value`;
  limitStrings(raw, vpath);
  const sub = substituteUser(raw, ctx.user);
  if (sub === UNRESOLVED) return FALSE;
  if (isNoValue(sub.value)) {
    if (sub.used) return FALSE;
    return type === '_id' && opt !== 'ne' ? EMPTY_ID : null;
  }
  if (!sub.used) return byType(type, field, opt, sub.value, vpath, ctx);
  // A user's own data that does not fit the clause narrows the answer to nothing; never widens it.
  try {
    return byType(type, field, opt, sub.value, vpath, ctx) ?? FALSE;
  } catch (e) {
    if (e instanceof QueryError) return FALSE;
    throw e;
  }
}
