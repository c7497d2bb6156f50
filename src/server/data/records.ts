import { type Kysely, sql } from 'kysely';
import { optionSetOf } from '../../shared/admin/option-sets.ts';
import { checksOptions, checkValue, optionListOf, storedToApi } from '../../shared/fields/values.ts';
import { newId } from '../../shared/id.ts';
import { compareSortValues } from '../../shared/query/compare.ts';
import {
  metricName,
  type NormalizedQuery,
  preciseSum,
  roundHalfAway,
  type SummaryAnswer,
  type SummarySpec,
} from '../../shared/query/index.ts';
import type { GroupKey } from '../../shared/query/summary.ts';
import { compiledOnce } from '../db/compiled.ts';
import type { Dialect } from '../db/index.ts';
import type { DB } from '../db/schema.ts';
import { AppError, E, fail } from '../errors.ts';
import { autoIndexOf, queryShape, summaryShape } from './auto-index.ts';
import { entityTable, type FieldType, fieldColumn, linkTable } from './ddl.ts';
import { $numberNewRecord, withOptionSets, withoutNumbered } from './field-extras.ts';
import { type EntityMeta, metaOf } from './meta.ts';
import type { RecordEvent, RecordTriggers, WriteHooks, WriteUser } from './record-hooks.ts';
import type { FieldRow } from './schema-service.ts';
import { QueryCompiler } from './sql-query.ts';
import { cachedSummary, summaryKey } from './summary-cache.ts';
import { noteWrite, settleWrites } from './write-clock.ts';

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;
type Raw = Record<string, unknown>;
export type ApiRecord = Record<string, unknown>;

const any = (db: Kysely<DB>) => db as unknown as AnyDb;

const selectLists = new WeakMap<EntityMeta, ReturnType<typeof sql.raw>>();

/**
 * Columns to select for a table: system columns plus every scalar field, compiled once per meta into
 * its text (identifiers only, no parameters), so a query does not print every column again.
 */
function selectList(meta: EntityMeta, db: Kysely<DB>) {
  let list = selectLists.get(meta);
  if (!list) {
    const cols = [
      sql.ref('t._id'),
      sql.ref('t._created_at'),
      sql.ref('t._updated_at'),
      sql.ref('t._creator'),
    ];
    for (const f of meta.fields) if (f.type !== 'collection') cols.push(sql.ref(`t.${fieldColumn(f.id)}`));
    const compiled = sql.join(cols).compile(db);
    if (compiled.parameters.length) return sql.join(cols);
    list = sql.raw(compiled.sql);
    selectLists.set(meta, list);
  }
  return list;
}

/** A stored row as the API shows it, before relations are attached. */
function toRecord(meta: EntityMeta, raw: Raw): ApiRecord {
  const rec: ApiRecord = {
    _id: raw._id,
    __entity: meta.entity.id,
    createdAt: Number(raw._created_at),
    updatedAt: Number(raw._updated_at),
  };
  for (const f of meta.fields) {
    if (f.type === 'collection') {
      rec[f.code] = [];
      rec[`___${f.code}`] = [];
      continue;
    }
    let v = raw[fieldColumn(f.id)] ?? null;
    if (v !== null && (f.type === 'number' || f.type === 'date')) v = Number(v);
    const typed = storedToApi(f.type as FieldType, v);
    rec[f.code] = typed ? typed.value : v;
  }
  rec.__name = meta.nameField ? (rec[meta.nameField.code] ?? '') : '';
  return rec;
}

export interface QueryResult {
  data: ApiRecord[];
  count?: number;
}

/**
 * Run a normalized query on one table, with relations resolved in one query per relation field.
 * `tableOrder` (a query with no sort of its own that pages nothing, e.g. a program's query step): rows
 * in the table's own order on SQLite (rowid: insertion order), which a filter's scan or index search
 * gives without walking the `_id` index or sorting; PostgreSQL keeps `_id` order.
 */
export async function queryRecords(
  db: Kysely<DB>,
  dialect: Dialect,
  meta: EntityMeta,
  q: NormalizedQuery,
  opts: { tableOrder?: boolean } = {},
): Promise<QueryResult> {
  if (q.nothing) return q.count ? { data: [], count: 0 } : { data: [] };
  const c = new QueryCompiler(dialect, meta.columns);
  const table = sql.table(meta.table);
  const started = performance.now();
  const byRowid = opts.tableOrder && dialect === 'sqlite' && q.sort.length === 0 && q.offset === 0;
  // The statement's text is kept per shape (table version, filter shape, order): a query sends only
  // its values after the first of its shape (db/compiled.ts).
  const shape = c.shape(q.where);
  const orderKey = byRowid ? 'rowid' : q.sort.map((k) => `${k.field}.${k.order}`).join(',');
  const rows = await compiledOnce<Raw>(
    db,
    `q|${meta.table}@${meta.entity.updated_at}|${orderKey}|${shape.key}`,
    [...shape.params, q.limit, q.offset],
    () => ({
      compile: () =>
        sql<Raw>`SELECT ${selectList(meta, db)} FROM ${table} t WHERE ${c.where(q.where)} ORDER BY ${byRowid ? sql`t.rowid` : c.orderBy(q)} LIMIT ${q.limit} OFFSET ${q.offset}`.compile(
          db,
        ),
    }),
  );
  const indexer = autoIndexOf(db);
  indexer?.observe(meta, queryShape(meta, q, dialect === 'postgres'), performance.now() - started);
  const data = rows.rows.map((r) => toRecord(meta, r));
  await attachRelations(db, meta, data);
  const result: QueryResult = { data };
  if (q.count) {
    const n = await compiledOnce<{ n: number }>(
      db,
      `n|${meta.table}@${meta.entity.updated_at}|${shape.key}`,
      shape.params,
      () => ({
        compile: () =>
          sql<{ n: number }>`SELECT count(*) AS n FROM ${table} t WHERE ${c.where(q.where)}`.compile(db),
      }),
    );
    result.count = Number(n.rows[0]?.n ?? 0);
  }
  return result;
}

/**
 * The ids a query selects, in its order (one narrow query): exports then read the rows by id in
 * pages, instead of paging with OFFSET, which rescans every earlier row for each page.
 */
export async function queryIds(
  db: Kysely<DB>,
  dialect: Dialect,
  meta: EntityMeta,
  q: NormalizedQuery,
): Promise<string[]> {
  if (q.nothing) return [];
  const c = new QueryCompiler(dialect, meta.columns);
  const rows = await sql<{
    _id: string;
  }>`SELECT t._id AS _id FROM ${sql.table(meta.table)} t WHERE ${c.where(q.where)} ORDER BY ${c.orderBy(
    q,
  )} LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db);
  return rows.rows.map((r) => String(r._id));
}

/** The records of these ids, in this order (missing ones left out), relations resolved. */
export async function recordsByIds(db: Kysely<DB>, meta: EntityMeta, ids: string[]): Promise<ApiRecord[]> {
  if (ids.length === 0) return [];
  const rows =
    await sql<Raw>`SELECT ${selectList(meta, db)} FROM ${sql.table(meta.table)} t WHERE t._id IN (${sql.join(ids)})`.execute(
      db,
    );
  const byId = new Map(rows.rows.map((r) => [String(r._id), toRecord(meta, r)]));
  const data = ids.map((id) => byId.get(id)).filter((r): r is ApiRecord => r !== undefined);
  await attachRelations(db, meta, data);
  return data;
}

/** Load the named records of a table, keyed by id (for relations). */
async function loadTargets(db: Kysely<DB>, targetId: string, ids: string[]): Promise<Map<string, ApiRecord>> {
  const out = new Map<string, ApiRecord>();
  if (ids.length === 0) return out;
  const entity = await db
    .selectFrom('data_entities')
    .selectAll()
    .where('id', '=', targetId)
    .executeTakeFirst();
  if (!entity) return out;
  const meta = await metaOf(db, entity);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows =
      await sql<Raw>`SELECT ${selectList(meta, db)} FROM ${sql.table(meta.table)} t WHERE t._id IN (${sql.join(chunk)})`.execute(
        db,
      );
    for (const r of rows.rows) {
      const rec = toRecord(meta, r);
      // Nested relations are not expanded: keep the target's own ids only.
      for (const f of meta.fields) if (f.type === 'collection') delete rec[`___${f.code}`];
      out.set(String(r._id), rec);
    }
  }
  return out;
}

async function attachRelations(db: Kysely<DB>, meta: EntityMeta, records: ApiRecord[]): Promise<void> {
  if (records.length === 0) return;
  const ownerIds = records.map((r) => String(r._id));
  for (const f of meta.fields) {
    if (f.type === 'relate' && f.relate_id) {
      const ids = [
        ...new Set(
          records.map((r) => r[f.code]).filter((v): v is string => typeof v === 'string' && v !== ''),
        ),
      ];
      const targets = await loadTargets(db, f.relate_id, ids);
      for (const r of records) {
        const t = typeof r[f.code] === 'string' ? targets.get(r[f.code] as string) : undefined;
        r[`_${f.code}`] = t ? t.__name : '';
        r[`___${f.code}`] = t ?? null;
      }
    } else if (f.type === 'collection' && f.relate_id) {
      const links = await any(db)
        .selectFrom(linkTable(f.id))
        .select(['owner_id', 'target_id'])
        .where('owner_id', 'in', ownerIds)
        .orderBy('sort')
        .orderBy('target_id')
        .execute();
      const targets = await loadTargets(db, f.relate_id, [...new Set(links.map((l) => String(l.target_id)))]);
      const byOwner = new Map<string, string[]>();
      for (const l of links) {
        const list = byOwner.get(String(l.owner_id)) ?? [];
        list.push(String(l.target_id));
        byOwner.set(String(l.owner_id), list);
      }
      for (const r of records) {
        const ids = (byOwner.get(String(r._id)) ?? []).filter((id) => targets.has(id));
        r[f.code] = ids;
        r[`___${f.code}`] = ids.map((id) => targets.get(id));
      }
    }
  }
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const ID = /^[0-9a-f]{24}$/;
const MAX_TEXT = 20_000;

export interface Prepared {
  columns: Record<string, unknown>;
  links: Map<FieldRow, string[]>;
  /**
   * Which fields `columns` holds: bit i for `meta.fields[i]` (-1 for a table of more than
   * MASK_FIELDS fields). Two writes of one table version with one mask write the same columns in the
   * same order (`writeKey`).
   */
  mask: number;
}

const MASK_FIELDS = 30;

/** Parse a date value: epoch ms, or a date text read in Beijing time unless it names its zone. */
export function parseDate(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) < 8.64e15) return Math.trunc(v);
  if (typeof v === 'string' && DATE_TEXT.test(v)) {
    const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(v);
    const iso = v.length === 10 ? `${v}T00:00:00` : v.replace(' ', 'T');
    const t = Date.parse(hasZone ? iso : `${iso}+08:00`);
    return Number.isFinite(t) ? t : null;
  }
  return null;
}

function badField(f: FieldRow, why: string): never {
  fail(E.INVALID_FIELD, `${f.code}: ${why}`);
}

/** Check and convert input values field by field; unknown keys are refused, `_`-prefixed ones ignored. */
export function prepare(meta: EntityMeta, input: Raw, partial: boolean): Prepared {
  const columns: Record<string, unknown> = {};
  const links = new Map<FieldRow, string[]>();
  for (const key of Object.keys(input)) {
    if (key.startsWith('_') || key === 'createdAt' || key === 'updatedAt') continue;
    if (!meta.byCode.has(key)) fail(E.INVALID_FIELD, `${key}: no such field`);
  }
  const fields = meta.fields;
  let mask = fields.length > MASK_FIELDS ? -1 : 0;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (!Object.hasOwn(input, f.code)) {
      if (!partial && f.type !== 'collection') {
        columns[fieldColumn(f.id)] = null;
        if (mask >= 0) mask |= 1 << i;
      }
      continue;
    }
    if (mask >= 0 && f.type !== 'collection') mask |= 1 << i;
    const v = input[f.code];
    if (f.type === 'collection') {
      if (v === null || v === undefined) links.set(f, []);
      else if (!Array.isArray(v) || v.length > 1000 || !v.every((x) => typeof x === 'string' && ID.test(x)))
        badField(f, 'expected a list of ids');
      else links.set(f, [...new Set(v as string[])]);
      continue;
    }
    const option = meta.options.get(f.code);
    const typed = checkValue(f.type as FieldType, v, option, meta.entity.project_id);
    if (typed) {
      if (!typed.ok) fail(typed.error, `${f.code}: ${typed.reason}`);
      columns[fieldColumn(f.id)] = typed.value;
      continue;
    }
    let out: unknown = null;
    if (v === null || v === undefined || v === '') out = null;
    else if (f.type === 'number') {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
      if (!Number.isFinite(n)) badField(f, 'expected a number');
      const d = meta.decimals.get(f.code);
      out = d === undefined ? n : roundHalfAway(n, d);
    } else if (f.type === 'date') {
      out = parseDate(v);
      if (out === null) badField(f, 'expected a date');
    } else if (f.type === 'time') {
      if (typeof v !== 'string' || !TIME.test(v)) badField(f, 'expected HH:mm or HH:mm:ss');
      out = (v as string).length === 5 ? `${v}:00` : v;
    } else if (f.type === 'relate') {
      if (typeof v !== 'string' || !ID.test(v)) badField(f, 'expected an id');
      out = v;
    } else if (f.type === 'image') {
      const list = Array.isArray(v) ? v : [v];
      if (!list.every((x) => typeof x === 'string' && x.length <= 2048 && /^(https?:\/\/|\/)/.test(x)))
        badField(f, 'expected image URLs');
      out = Array.isArray(v) ? JSON.stringify(v) : v;
    } else {
      if (typeof v === 'number' || typeof v === 'boolean') out = String(v);
      else if (typeof v !== 'string') badField(f, 'expected text');
      else out = v;
      if ((out as string).length > MAX_TEXT) badField(f, `at most ${MAX_TEXT} characters`);
      if ((out as string).includes('\u0000')) badField(f, 'contains a NUL character');
    }
    // A text or number field with its option list enabled takes only values of the list.
    if (out !== null && checksOptions(f.type as FieldType, option)) {
      if (!optionListOf(option).includes(String(out))) fail(E.FIELD_OPTION_UNKNOWN, `${f.code}: '${out}'`);
    }
    columns[fieldColumn(f.id)] = out;
  }
  return { columns, links, mask };
}

/**
 * What a table's writes need beyond the row itself, worked out once per meta (a meta is cached per
 * table version): option sets to load, relate ids to check, numbered fields. A write to a table with
 * none of them awaits nothing but its statement.
 */
interface WriteNeeds {
  optionSets: boolean;
  relate: boolean;
  numbered: boolean;
}
const writeNeeds = new WeakMap<EntityMeta, WriteNeeds>();

function needsOf(meta: EntityMeta): WriteNeeds {
  let n = writeNeeds.get(meta);
  if (!n) {
    n = {
      optionSets: [...meta.options.values()].some((o) => optionSetOf(o) !== undefined),
      relate: meta.fields.some((f) => f.type === 'relate' && f.relate_id),
      numbered: meta.fields.some((f) => typeof meta.options.get(f.code)?.increment === 'string'),
    };
    writeNeeds.set(meta, n);
  }
  return n;
}

/** The meta whose option lists are the option sets' current ones (as is when it names none). */
async function checkedMeta(trx: Kysely<DB>, meta: EntityMeta): Promise<EntityMeta> {
  return needsOf(meta).optionSets ? withOptionSets(trx, meta) : meta;
}

/** Relate and collection ids must name existing records of the target table. */
async function checkTargets(db: Kysely<DB>, meta: EntityMeta, p: Prepared): Promise<void> {
  const checks: [FieldRow, string[]][] = [...p.links.entries()];
  for (const f of meta.fields) {
    const v = p.columns[fieldColumn(f.id)];
    if (f.type === 'relate' && typeof v === 'string') checks.push([f, [v]]);
  }
  for (const [f, ids] of checks) {
    if (ids.length === 0 || !f.relate_id) continue;
    const found = await any(db)
      .selectFrom(entityTable(f.relate_id))
      .select('_id')
      .where('_id', 'in', ids)
      .execute();
    if (found.length !== ids.length) fail(E.INVALID_FIELD, `${f.code}: no such record in the related table`);
  }
}

async function writeLinks(db: Kysely<DB>, ownerId: string, links: Map<FieldRow, string[]>): Promise<void> {
  for (const [f, ids] of links) {
    const t = linkTable(f.id);
    await any(db).deleteFrom(t).where('owner_id', '=', ownerId).execute();
    if (ids.length) {
      await any(db)
        .insertInto(t)
        .values(ids.map((target_id, sort) => ({ owner_id: ownerId, target_id, sort })))
        .execute();
    }
  }
}

export async function getRecord(db: Kysely<DB>, meta: EntityMeta, id: string): Promise<ApiRecord> {
  if (!ID.test(id)) fail(E.RECORD_NOT_FOUND);
  const rows =
    await sql<Raw>`SELECT ${selectList(meta, db)} FROM ${sql.table(meta.table)} t WHERE t._id = ${id}`.execute(
      db,
    );
  const raw = rows.rows[0];
  if (!raw) fail(E.RECORD_NOT_FOUND);
  const rec = toRecord(meta, raw);
  await attachRelations(db, meta, [rec]);
  return rec;
}

/**
 * Insert a record inside the caller's transaction (the `$` marks functions that must run in one);
 * answers its id. Program runs call these so all their writes commit or roll back together.
 */
export async function $insertRecord(
  trx: Kysely<DB>,
  meta: EntityMeta,
  input: Raw,
  userId: string | null,
  hooks?: WriteHooks,
): Promise<string> {
  return (await $insertReturning(trx, meta, input, userId, hooks, true))._id as string;
}

const listens = (hooks: WriteHooks | undefined, meta: EntityMeta, op: RecordEvent['op']) =>
  hooks !== undefined && hooks.wants?.(meta, op) !== false;

/** The stored row a write answered (RETURNING), as the API shows it. */
async function returned(trx: Kysely<DB>, meta: EntityMeta, raw: Raw | undefined): Promise<ApiRecord> {
  if (!raw) fail(E.RECORD_NOT_FOUND);
  const rec = toRecord(meta, raw);
  await attachRelations(trx, meta, [rec]);
  return rec;
}

function returningList(meta: EntityMeta): string[] {
  const cols = ['_id', '_created_at', '_updated_at', '_creator'];
  for (const f of meta.fields) if (f.type !== 'collection') cols.push(fieldColumn(f.id));
  return cols;
}

/** Kept-statement keys of writes, by meta (one table version) and (fields written, kind). */
const writeKeys = new WeakMap<EntityMeta, Map<number, string>>();

/**
 * The compiledOnce key of a write to `row`'s columns: its kind, the table version, whether it returns
 * the row, and the columns. With a field mask (`Prepared.mask`, of `meta`'s own fields: the columns
 * follow from it) the text is made once per (meta, mask, kind) and then handed back as the same
 * string, so a write builds no key and the lookup hashes no new text; -1 builds it every time.
 */
function writeKey(meta: EntityMeta, kind: 'i' | 'u', readRow: boolean, mask: number, row: Raw): string {
  let keys: Map<number, string> | undefined;
  let k = 0;
  if (mask >= 0) {
    keys = writeKeys.get(meta);
    if (!keys) {
      keys = new Map();
      writeKeys.set(meta, keys);
    }
    k = mask * 4 + (kind === 'u' ? 2 : 0) + (readRow ? 1 : 0);
    const key = keys.get(k);
    if (key !== undefined) return key;
  }
  const key = `${kind}|${meta.table}@${meta.entity.updated_at}|${readRow ? 'r' : ''}|${Object.keys(row).join(',')}`;
  keys?.set(k, key);
  return key;
}

/** A write's values in its columns' order, then `extra` (bound after them: an update's id). */
function valuesOf(row: Raw, extra?: unknown): unknown[] {
  const out: unknown[] = [];
  for (const c in row) out.push(row[c]);
  if (extra !== undefined) out.push(extra);
  return out;
}

/**
 * Insert a record inside the caller's transaction. With `readBack` (or a hook listening) it answers
 * the record as stored, read by the insert itself (RETURNING, on both databases) rather than by a
 * second query; without, only `{_id}` and the values given (no row is read).
 */
export async function $insertReturning(
  trx: Kysely<DB>,
  meta: EntityMeta,
  input: Raw,
  userId: string | null,
  hooks: WriteHooks | undefined,
  readBack: boolean,
): Promise<ApiRecord> {
  const needs = needsOf(meta);
  const p = prepare(needs.optionSets ? await checkedMeta(trx, meta) : meta, input, false);
  if (needs.relate || p.links.size) await checkTargets(trx, meta, p);
  noteWrite(trx, meta.table);
  const now = Date.now();
  const id = newId(now);
  if (needs.numbered) await $numberNewRecord(trx, meta, p.columns, now);
  const hooked = listens(hooks, meta, 'create');
  const row: Raw = { _id: id, _created_at: now, _updated_at: now, _creator: userId, ...p.columns };
  const readRow = readBack || hooked;
  // Option sets and numbering work on another meta or add columns: no mask then.
  const mask = needs.optionSets || needs.numbered ? -1 : p.mask;
  const r = await compiledOnce<Raw>(trx, writeKey(meta, 'i', readRow, mask, row), valuesOf(row), () => {
    const insert = any(trx).insertInto(meta.table).values(row);
    return readRow ? insert.returning(returningList(meta)) : insert;
  });
  if (p.links.size) await writeLinks(trx, id, p.links);
  if (!readRow) return { ...input, _id: id };
  // Relations (and the collection links just written) are attached after the links.
  const after = await returned(trx, meta, r.rows[0]);
  if (hooked) await hooks!.afterWrite(trx, { op: 'create', meta, id, before: null, after });
  return after;
}

/** Update a record inside the caller's transaction (RECORD_NOT_FOUND when it is not there); answers it as it was. */
export async function $updateRecord(
  trx: Kysely<DB>,
  meta: EntityMeta,
  id: string,
  input: Raw,
  hooks?: WriteHooks,
): Promise<ApiRecord> {
  return (await $updateReturning(trx, meta, id, input, hooks, { before: true, after: true })).before!;
}

/**
 * Update a record inside the caller's transaction. Reads only what is asked for (or what a listening
 * hook needs): the row before (a query), and the row after (read by the update itself: RETURNING).
 * Without `after` it answers `{_id}` and the values given.
 */
export async function $updateReturning(
  trx: Kysely<DB>,
  meta: EntityMeta,
  id: string,
  input: Raw,
  hooks: WriteHooks | undefined,
  want: { before: boolean; after: boolean },
): Promise<{ before: ApiRecord | null; after: ApiRecord }> {
  if (!ID.test(id)) fail(E.RECORD_NOT_FOUND);
  const hooked = listens(hooks, meta, 'update');
  const before = want.before || hooked ? await getRecord(trx, meta, id) : null;
  const needs = needsOf(meta);
  const p = prepare(
    needs.optionSets ? await checkedMeta(trx, meta) : meta,
    needs.numbered ? withoutNumbered(meta, input) : input,
    true,
  );
  if (needs.relate || p.links.size) await checkTargets(trx, meta, p);
  noteWrite(trx, meta.table);
  // The prepared columns are this call's own: the update's SET is them and the clock.
  const set = p.columns;
  set._updated_at = Date.now();
  const readRow = want.after || hooked;
  const r = await compiledOnce<Raw>(
    trx,
    writeKey(meta, 'u', readRow, needs.optionSets ? -1 : p.mask, set),
    valuesOf(set, id),
    () => {
      const update = any(trx).updateTable(meta.table).set(set).where('_id', '=', id);
      return readRow ? update.returning(returningList(meta)) : update;
    },
  );
  if (!readRow) {
    if (Number(r.numAffectedRows ?? 0) === 0) fail(E.RECORD_NOT_FOUND);
    if (p.links.size) await writeLinks(trx, id, p.links);
    return { before, after: { ...input, _id: id } };
  }
  const raw = r.rows[0];
  if (!raw) fail(E.RECORD_NOT_FOUND);
  if (p.links.size) await writeLinks(trx, id, p.links);
  const after = await returned(trx, meta, raw);
  if (hooked) await hooks!.afterWrite(trx, { op: 'update', meta, id, before, after });
  return { before, after };
}

/** Remove a record, its links, and references to it elsewhere, inside the caller's transaction. */
export async function $removeRecord(
  trx: Kysely<DB>,
  meta: EntityMeta,
  id: string,
  hooks?: WriteHooks,
): Promise<void> {
  const before = await getRecord(trx, meta, id);
  noteWrite(trx, meta.table);
  const pointing = await trx
    .selectFrom('data_fields')
    .selectAll()
    .where('relate_id', '=', meta.entity.id)
    .execute();
  for (const f of meta.fields) {
    if (f.type === 'collection')
      await any(trx).deleteFrom(linkTable(f.id)).where('owner_id', '=', id).execute();
  }
  for (const f of pointing) {
    if (f.type === 'collection')
      await any(trx).deleteFrom(linkTable(f.id)).where('target_id', '=', id).execute();
    else {
      noteWrite(trx, entityTable(f.entity_id));
      await any(trx)
        .updateTable(entityTable(f.entity_id))
        .set({ [fieldColumn(f.id)]: null })
        .where(fieldColumn(f.id), '=', id)
        .execute();
    }
  }
  await any(trx).deleteFrom(meta.table).where('_id', '=', id).execute();
  if (listens(hooks, meta, 'remove'))
    await hooks!.afterWrite(trx, { op: 'remove', meta, id, before, after: null });
}

/** Who a plain data call writes for, and the record triggers its writes fire (program/triggers.ts). */
export interface WriteBy {
  user: WriteUser | null;
  triggers?: RecordTriggers | undefined;
  /**
   * Of the records just saved or updated, the ids that fall outside what the caller may keep (a role's
   * default filter), read inside the write's transaction: any refuses the write, nothing is kept.
   */
  outside?: ((trx: Kysely<DB>, meta: EntityMeta, ids: string[]) => Promise<Set<string>>) | undefined;
}

/** Refuses the write (inside its transaction) when the record it left falls outside the caller's bounds. */
async function $keepInside(trx: Kysely<DB>, meta: EntityMeta, by: WriteBy | undefined, id: string) {
  if (by?.outside && (await by.outside(trx, meta, [id])).size) fail(E.ROLE_RECORD_WOULD_LEAVE);
}

/** One write transaction with the record triggers it fires; their effects leave after the commit. */
async function inWrite<T>(
  db: Kysely<DB>,
  meta: EntityMeta,
  by: WriteBy | undefined,
  fn: (trx: Kysely<DB>, hooks: WriteHooks | undefined) => Promise<T>,
): Promise<T> {
  const scope = by?.triggers?.begin(meta.entity.project_id, by.user);
  let committed = false;
  let open: Kysely<DB> | undefined;
  try {
    const out = await db.transaction().execute((trx) => {
      open = trx;
      return fn(trx, scope?.hooks);
    });
    committed = true;
    return out;
  } finally {
    if (open) settleWrites(open);
    await scope?.settle(committed);
  }
}

export async function saveRecord(db: Kysely<DB>, meta: EntityMeta, input: Raw, by?: WriteBy) {
  const id = await inWrite(db, meta, by, async (trx, hooks) => {
    const made = await $insertRecord(trx, meta, input, by?.user?._id ?? null, hooks);
    await $keepInside(trx, meta, by, made);
    return made;
  });
  return getRecord(db, meta, id);
}

export async function updateRecord(db: Kysely<DB>, meta: EntityMeta, id: string, input: Raw, by?: WriteBy) {
  await inWrite(db, meta, by, async (trx, hooks) => {
    await $updateRecord(trx, meta, id, input, hooks);
    await $keepInside(trx, meta, by, id);
  });
  return getRecord(db, meta, id);
}

/** Remove a record, its links, and references to it from relate and collection fields elsewhere. */
export async function removeRecord(
  db: Kysely<DB>,
  meta: EntityMeta,
  id: string,
  by?: WriteBy,
): Promise<void> {
  await inWrite(db, meta, by, (trx, hooks) => $removeRecord(trx, meta, id, hooks));
}

/** Rows a list write (save, update or remove) takes at most. */
export const BULK_MAX = 1000;
/** Row errors listed in a refused list write's answer. */
const BULK_LISTED = 100;

export interface BulkRowError {
  /** 1-based position in the list. */
  row: number;
  id?: string;
  code: number;
  reason: string;
}

export type BulkOp = 'save' | 'update' | 'remove';

const isPlain = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A list of saves, updates (`{ _id, ...fields }`) or removes (ids) in one transaction, each row
 * checked and written like its single call (record triggers included). Any row refused refuses the
 * whole list: nothing is written and BULK_ROWS lists the rows and why (as an import does).
 * Answers the ids in list order.
 */
export async function bulkWrite(
  db: Kysely<DB>,
  meta: EntityMeta,
  op: BulkOp,
  items: unknown,
  by?: WriteBy,
): Promise<{ count: number; ids: string[] }> {
  if (!Array.isArray(items) || items.length === 0 || items.length > BULK_MAX)
    fail(E.BULK_SIZE, Array.isArray(items) ? `${items.length} rows` : 'expected a list');
  const list = items as unknown[];
  const errors: BulkRowError[] = [];
  let failed = 0;
  const refuse = (row: number, id: string | undefined, code: number, reason: string) => {
    failed++;
    if (errors.length < BULK_LISTED) errors.push({ row, ...(id ? { id } : {}), code, reason });
  };
  const ids = await inWrite(db, meta, by, async (trx, hooks) => {
    const out: string[] = [];
    // Row numbers of the saved and updated ids, for refusing those that leave the caller's bounds.
    const rowOf = new Map<string, number>();
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      let id: string | undefined;
      try {
        if (op === 'save') {
          if (!isPlain(item)) fail(E.INVALID_FIELD, 'expected a record object');
          id = await $insertRecord(trx, meta, item, by?.user?._id ?? null, hooks);
        } else if (op === 'update') {
          if (!isPlain(item) || typeof item._id !== 'string') fail(E.INVALID_FIELD, '_id: expected an id');
          id = item._id as string;
          await $updateRecord(trx, meta, id, item, hooks);
        } else {
          if (typeof item !== 'string') fail(E.INVALID_FIELD, 'expected an id');
          id = item as string;
          await $removeRecord(trx, meta, id, hooks);
        }
        out.push(id);
        if (op !== 'remove') rowOf.set(id, i + 1);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        refuse(i + 1, id && ID.test(id) ? id : undefined, err.def.code, err.detail ?? err.def.msg);
      }
    }
    if (by?.outside && rowOf.size) {
      const outside = await by.outside(trx, meta, [...rowOf.keys()]);
      for (const [id, row] of rowOf)
        if (outside.has(id)) refuse(row, id, E.ROLE_RECORD_WOULD_LEAVE.code, E.ROLE_RECORD_WOULD_LEAVE.msg);
    }
    errors.sort((a, b) => a.row - b.row);
    if (failed > 0)
      throw new AppError(
        E.BULK_ROWS,
        errors
          .slice(0, 10)
          .map((e) => `row ${e.row}: ${e.reason}`)
          .join('; '),
        { failed, errors },
      );
    return out;
  });
  return { count: ids.length, ids };
}

/**
 * Summaries in SQL, rounded in JS with the reference rounding; answered from the summary cache
 * until a write touches the table (summary-cache.ts).
 */
export async function summarizeRecords(
  db: Kysely<DB>,
  dialect: Dialect,
  meta: EntityMeta,
  q: NormalizedQuery,
  spec: SummarySpec,
): Promise<SummaryAnswer> {
  const key = summaryKey(String(meta.entity.updated_at), q, spec);
  // A grouped view's pages will sort by its groups (auto-index.ts indexes that order at its first slow page).
  if (spec.group?.length) autoIndexOf(db)?.expectGrouped(meta, q, spec.group);
  return cachedSummary(meta.table, key, () => computeSummary(db, dialect, meta, q, spec));
}

/** Partial aggregates of one group: merged when '' and null fall in one group, then read. */
/** `comp`: what a rollup's sum carries beside it (its compensation, rollup.ts), 0 from a scan. */
type Parts = Array<{
  n: number;
  sum: number;
  comp: number;
  cnt: number;
  min: number | null;
  max: number | null;
}>;

/**
 * One scan: without groups one aggregate row; with groups, GROUP BY the plain columns (so an index
 * on them can serve it), then '' and null text keys merge in JS and the total is the groups'
 * merge: no second scan for the total.
 */
async function computeSummary(
  db: Kysely<DB>,
  dialect: Dialect,
  meta: EntityMeta,
  q: NormalizedQuery,
  spec: SummarySpec,
): Promise<SummaryAnswer> {
  const accuracy = spec.accuracy ?? 2;
  const c = new QueryCompiler(dialect, meta.columns, 't', false);
  const where = q.nothing ? sql`1 = 0` : c.where(q.where);
  const col = (code: string) => sql.ref(`t.${meta.columns[code]!.column}`);
  const textLike = (code: string) => !['number', 'date', 'boolean'].includes(meta.queryTypes[code] ?? '');
  const keyExpr = (code: string) => (textLike(code) ? sql`NULLIF(${col(code)}, '')` : col(code));
  // Per metric: a row count (n), a sum and the count it was taken over (sum, cnt), min, max.
  const parts: ReturnType<typeof sql>[] = [];
  spec.metrics.forEach((m, i) => {
    const a = (x: string) => sql.ref(`m${i}_${x}`);
    if (!m.field) parts.push(sql`count(*) AS ${a('n')}`);
    else if (m.fn === 'count') parts.push(sql`count(${keyExpr(m.field)}) AS ${a('n')}`);
    // The count beside a sum is for avg only (a sum of no value reads as 0 either way): it cost a
    // grouped scan ~15%.
    else if (m.fn === 'sum') parts.push(sql`sum(${col(m.field)}) AS ${a('sum')}`);
    else if (m.fn === 'avg')
      parts.push(sql`sum(${col(m.field)}) AS ${a('sum')}`, sql`count(${col(m.field)}) AS ${a('cnt')}`);
    else parts.push(sql`${sql.raw(m.fn)}(${col(m.field)}) AS ${a(m.fn)}`);
  });
  const table = sql.table(meta.table);
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const partsOf = (row: Raw): Parts =>
    spec.metrics.map((_, i) => ({
      n: num(row[`m${i}_n`]) ?? 0,
      sum: num(row[`m${i}_sum`]) ?? 0,
      comp: num(row[`m${i}_comp`]) ?? 0,
      cnt: num(row[`m${i}_cnt`]) ?? 0,
      min: num(row[`m${i}_min`]),
      max: num(row[`m${i}_max`]),
    }));
  const merge = (into: Parts, add: Parts, sums: number[][]) => {
    add.forEach((p, i) => {
      const t = into[i]!;
      t.n += p.n;
      t.cnt += p.cnt;
      sums[i]!.push(p.sum);
      if (p.comp !== 0) sums[i]!.push(p.comp);
      if (p.min !== null) t.min = t.min === null ? p.min : Math.min(t.min, p.min);
      if (p.max !== null) t.max = t.max === null ? p.max : Math.max(t.max, p.max);
    });
  };
  const empty = (): Parts =>
    spec.metrics.map(() => ({ n: 0, sum: 0, comp: 0, cnt: 0, min: null, max: null }));
  const read = (p: Parts, sums?: number[][]) => {
    const out: Record<string, number | null> = {};
    spec.metrics.forEach((m, i) => {
      const x = p[i]!;
      const sum = sums ? preciseSum(sums[i]!) : x.comp !== 0 ? preciseSum([x.sum, x.comp]) : x.sum;
      out[metricName(m)] =
        m.fn === 'count' || !m.field
          ? x.n
          : m.fn === 'sum'
            ? roundHalfAway(sum, accuracy)
            : m.fn === 'avg'
              ? x.cnt === 0
                ? null
                : roundHalfAway(sum / x.cnt, accuracy)
              : x[m.fn] === null
                ? null
                : roundHalfAway(x[m.fn] as number, accuracy);
    });
    return out;
  };
  const group = spec.group ?? [];
  const indexer = autoIndexOf(db);
  // A rollup serving the summary answers it from its per-group rows (rollup.ts), named as the
  // scan's rows are: no scan, nothing to record.
  const served = indexer ? await indexer.rollups.read(db, meta, q, spec) : null;
  const started = performance.now();
  const observe = (groups: number) => {
    const ms = performance.now() - started;
    indexer?.observe(meta, summaryShape(meta, q, spec), ms);
    indexer?.rollups.observe(meta, q, spec, ms, groups);
  };
  if (!group.length) {
    let row = served?.[0];
    if (!served) {
      row = (await sql<Raw>`SELECT ${sql.join(parts)} FROM ${table} t WHERE ${where}`.execute(db)).rows[0];
      observe(1);
    }
    return { total: read(partsOf(row ?? {})), groups: [] };
  }
  const keys = group.map((g, i) => sql`${col(g)} AS ${sql.ref(`k${i}`)}`);
  let rows = served;
  if (!rows) {
    // SQLite walks any index that yields the group order rather than sort, looking each row up in
    // the table: through a grouped view's page index (`region, _id`) the whole-table summary took
    // twice as long as a scan and sort. A group key of `+col` is served by no index; only the
    // summary's own covering index (auto-index.ts), which needs no lookups, is left to serve it.
    const shape = dialect === 'sqlite' ? summaryShape(meta, q, spec) : null;
    const byIndex =
      dialect !== 'sqlite' ||
      (shape !== null && (await indexer?.serves(meta.table, shape.key).catch(() => false)) === true);
    rows = (
      await sql<Raw>`SELECT ${sql.join(keys)}, ${sql.join(parts)} FROM ${table} t WHERE ${where} GROUP BY ${sql.join(
        group.map((g) => (byIndex ? col(g) : sql`+${col(g)}`)),
      )}`.execute(db)
    ).rows;
    observe(rows.length);
  }
  const total = empty();
  const totalSums: number[][] = spec.metrics.map(() => []);
  const byKey = new Map<string, { key: GroupKey; parts: Parts; sums: number[][] }>();
  for (const r of rows) {
    const key: GroupKey = group.map((g, i) => {
      const v = r[`k${i}`];
      if (v === null || v === undefined) return null;
      if (!textLike(g)) return Number(v);
      const s = String(v);
      return s === '' ? null : s;
    });
    const id = JSON.stringify(key);
    let b = byKey.get(id);
    if (!b) {
      b = { key, parts: empty(), sums: spec.metrics.map(() => []) };
      byKey.set(id, b);
    }
    const p = partsOf(r);
    merge(b.parts, p, b.sums);
    merge(total, p, totalSums);
  }
  const groups = [...byKey.values()]
    .sort((x, y) => {
      for (let i = 0; i < group.length; i++) {
        const d = compareSortValues(x.key[i] ?? null, y.key[i] ?? null);
        if (d !== 0) return d;
      }
      return 0;
    })
    .map((b) => ({ key: b.key, values: read(b.parts, b.sums) }));
  return { total: read(total, totalSums), groups };
}
