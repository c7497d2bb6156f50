/**
 * normalize(input, ctx): the defensive parser for untrusted query requests (Excalidraw "restore"
 * style). Fills defaults, drops clauses that carry no value, flattens groups, resolves dates and
 * `$$USER`, and refuses anything it cannot read with a QueryError naming the path. It never throws
 * for bad input: the answer is `{ ok: false, error }`.
 */
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, QUERY_ALL_LIMIT, TIME_ZONE } from '../constants.ts';
import { readField } from './clause.ts';
import { invalid, QueryError, tooComplex } from './error.ts';
import { QUERY_LIMITS } from './limits.ts';
import { type TreeState, walkNode } from './tree.ts';
import type { FieldMap, NormalizedQuery, NormalizeResult, QueryContext, SortKey } from './types.ts';
import { isTimeZone } from './tz.ts';
import { isNoValue, isObj, own, readFlag, readNumber } from './values.ts';

const ORDERS: Record<string, 'asc' | 'desc'> = { asc: 'asc', ascend: 'asc', desc: 'desc', descend: 'desc' };

function readSort(v: unknown, fields: FieldMap | undefined): SortKey[] {
  if (isNoValue(v)) return [];
  const items = Array.isArray(v) ? v : [v];
  if (items.length > QUERY_LIMITS.maxSort) tooComplex('sort', `more than ${QUERY_LIMITS.maxSort} keys`);
  const out: SortKey[] = [];
  items.forEach((item, i) => {
    const path = `sort[${i}]`;
    if (!isObj(item)) invalid(path, 'expected { field, order }');
    const field = readField(own(item, 'field'), `${path}.field`);
    const raw = own(item, 'order') ?? 'asc';
    const order = raw === 1 ? 'asc' : raw === -1 ? 'desc' : typeof raw === 'string' ? ORDERS[raw] : undefined;
    if (!order) invalid(`${path}.order`, "expected 'asc' or 'desc'");
    if (fields && field !== '_id') {
      const type = Object.hasOwn(fields, field) ? fields[field] : undefined;
      if (!type) invalid(`${path}.field`, 'unknown field');
      if (type === 'collection' || type === 'options')
        invalid(
          `${path}.field`,
          `${type === 'options' ? 'multiple options' : 'collections'} cannot be sorted`,
        );
    }
    if (!out.some((k) => k.field === field)) out.push({ field, order });
  });
  return out;
}

function readPage(v: unknown, all: boolean): { offset: number; limit: number } {
  if (all) return { offset: 0, limit: QUERY_ALL_LIMIT };
  if (v === undefined || v === null) return { offset: 0, limit: PAGE_SIZE_DEFAULT };
  if (!isObj(v)) invalid('page', 'expected { index, size }');
  const index = isNoValue(own(v, 'index')) ? 1 : readNumber(own(v, 'index'), 'page.index');
  const size = isNoValue(own(v, 'size')) ? PAGE_SIZE_DEFAULT : readNumber(own(v, 'size'), 'page.size');
  if (!Number.isInteger(index) || index < 1) invalid('page.index', 'expected an integer ≥ 1');
  if (index > QUERY_LIMITS.maxPageIndex) tooComplex('page.index', 'page index too large');
  if (!Number.isInteger(size) || size < 1) invalid('page.size', 'expected an integer ≥ 1');
  const limit = Math.min(size, PAGE_SIZE_MAX);
  return { offset: (index - 1) * limit, limit };
}

function checkCtx(ctx: QueryContext): string {
  if (!Number.isFinite(ctx.now)) invalid('ctx.now', 'expected epoch ms');
  const timeZone = ctx.timeZone ?? TIME_ZONE;
  if (!isTimeZone(timeZone)) invalid('ctx.timeZone', 'unknown time zone');
  return timeZone;
}

/** Like `normalize` but throws the QueryError. */
export function normalizeOrThrow(input: unknown, ctx: QueryContext): NormalizedQuery {
  const timeZone = checkCtx(ctx);
  const req = input === undefined || input === null ? {} : input;
  if (!isObj(req)) invalid('', 'expected a query request object');
  const all = readFlag(own(req, 'all'), 'all');
  const st: TreeState = {
    ctx: { now: ctx.now, timeZone, user: ctx.user, fields: ctx.fields },
    allowEmptyId: readFlag(own(req, 'empty'), 'empty'),
    clauses: 0,
    groups: 0,
    nothing: false,
  };
  const q = own(req, 'query');
  const where = isNoValue(q) ? null : walkNode(q, 'query', 1, true, st);
  return {
    where,
    sort: readSort(own(req, 'sort'), ctx.fields),
    ...readPage(own(req, 'page'), all),
    count: readFlag(own(req, 'count'), 'count'),
    nothing: st.nothing,
  };
}

/** Parses an untrusted query request; answers the clean query or the coded error. */
export function normalize(input: unknown, ctx: QueryContext): NormalizeResult {
  try {
    return { ok: true, query: normalizeOrThrow(input, ctx) };
  } catch (e) {
    if (e instanceof QueryError) return { ok: false, error: e };
    throw e;
  }
}
