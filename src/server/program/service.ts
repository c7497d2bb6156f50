/** Flows as documents (draft, numbered releases, restore) and the run log: the SQL of the programs area. */
import type { Kysely } from 'kysely';
import { newId } from '../../shared/id.ts';
import type {
  Flow,
  FlowDocument,
  FlowStep,
  InputField,
  RunLogEntry,
  RunResult,
  TraceEntry,
} from '../../shared/program/index.ts';
import { PROGRAM_LIMITS } from '../../shared/program/index.ts';
import { parseDate } from '../data/records.ts';
import { assertModule } from '../data/schema-service.ts';
import { schemaChanged } from '../data/write-clock.ts';
import { compiledOnce } from '../db/compiled.ts';
import type { DB, FlowsTable, ProgramRunsTable } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import { listFlowVersions, releaseDocument, restoreDraft, versionDocument } from './flow-versions.ts';
import { parseFlowDocument } from './validate.ts';

export type FlowRow = FlowsTable;
const ID = /^[0-9a-f]{24}$/;

function parseDoc(text: string | null): FlowDocument {
  if (!text) return { _process: [], _option: {} };
  try {
    const v = JSON.parse(text) as Partial<FlowDocument>;
    return { _process: Array.isArray(v._process) ? v._process : [], _option: v._option ?? {} };
  } catch {
    return { _process: [], _option: {} };
  }
}

/** Released documents never change for a (flow, version): parsed once per process, shared read-only. */
const releasedCache = new Map<string, FlowDocument>();
const RELEASED_CACHE_MAX = 2000;

/** The released document end users run (null before the first release). */
export function releasedDoc(row: FlowRow): FlowDocument | null {
  if (row.released === null) return null;
  const key = `${row.id}:${row.released_version}`;
  let doc = releasedCache.get(key);
  // The text is compared too: an import or a restore in another process keeps ids and numbers apart,
  // but a test database reused under the same ids must not read another run's document.
  if (!doc || releasedText.get(key) !== row.released) {
    doc = parseDoc(row.released);
    if (releasedCache.size >= RELEASED_CACHE_MAX) {
      const old = releasedCache.keys().next().value as string;
      releasedCache.delete(old);
      releasedText.delete(old);
    }
    releasedCache.set(key, doc);
    releasedText.set(key, row.released);
  }
  return doc;
}
const releasedText = new Map<string, string>();

export function draftDoc(row: FlowRow): FlowDocument {
  return parseDoc(row.draft);
}

export function apiFlow(row: FlowRow): Flow {
  return {
    _id: row.id,
    _type: row.type,
    _name: row.name,
    _sort: row.sort,
    _module: row.module_id,
    _version: row.released_version,
    _lastVersion: Number(row.last_version),
    _updatedAt: Number(row.updated_at),
    ...draftDoc(row),
  };
}

export async function listFlows(db: Kysely<DB>, projectId: string): Promise<FlowRow[]> {
  return db
    .selectFrom('flows')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

/** A flow of this project (another project's id is not found). */
export async function findFlow(db: Kysely<DB>, projectId: string, id: string): Promise<FlowRow> {
  if (!ID.test(id)) fail(E.PROGRAM_NOT_FOUND);
  const row = await db
    .selectFrom('flows')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!row) fail(E.PROGRAM_NOT_FOUND);
  return row;
}

function checkName(name: string): string {
  const n = name.trim();
  if (!n) fail(E.BAD_REQUEST, 'name must not be empty');
  return n;
}

export interface FlowPatch {
  name?: string;
  sort?: number;
  module?: string | null;
  _process?: unknown;
  _option?: unknown;
}

/** Check the tables and programs a document names belong to the project (and it does not call itself). */
async function checkTables(
  db: Kysely<DB>,
  projectId: string,
  doc: FlowDocument,
  self?: string,
): Promise<void> {
  const refs = new Set<string>();
  const calls = new Set<string>();
  const walk = (list: FlowStep[]) => {
    for (const s of list) {
      if (s._entity) refs.add(s._entity);
      if (s._type === 'call' && typeof s._procedure.program === 'string') calls.add(s._procedure.program);
      for (const v of Object.values(s._procedure))
        if (Array.isArray(v) && v.every((x) => x && typeof x === 'object' && '_type' in x))
          walk(v as FlowStep[]);
    }
  };
  walk(doc._process);
  if (self && calls.has(self)) fail(E.PROGRAM_INVALID, 'program: a program cannot call itself');
  if (calls.size) {
    const found = await db
      .selectFrom('flows')
      .select('id')
      .where('project_id', '=', projectId)
      .where('id', 'in', [...calls])
      .execute();
    const known = new Set(found.map((r) => r.id));
    for (const c of calls)
      if (!known.has(c)) fail(E.PROGRAM_INVALID, `program: no program ${c} in this project`);
  }
  if (doc._option._entity) refs.add(doc._option._entity);
  if (!refs.size) return;
  const rows = await db
    .selectFrom('data_entities')
    .select(['id', 'code'])
    .where('project_id', '=', projectId)
    .execute();
  const known = new Set(rows.flatMap((r) => [r.id, r.code]));
  for (const r of refs)
    if (!known.has(r)) fail(E.PROGRAM_INVALID, `_entity: no data table ${r} in this project`);
}

async function cleanDoc(
  db: Kysely<DB>,
  projectId: string,
  patch: FlowPatch,
  base: FlowDocument,
  self?: string,
) {
  const doc = parseFlowDocument({
    _process: patch._process ?? base._process,
    _option: patch._option ?? base._option,
  });
  await checkTables(db, projectId, doc, self);
  return doc;
}

export async function createFlow(
  db: Kysely<DB>,
  projectId: string,
  input: FlowPatch & { name: string; type?: 'program' | 'dataset' },
): Promise<FlowRow> {
  await assertModule(db, projectId, input.module);
  const doc = await cleanDoc(db, projectId, input, { _process: [], _option: {} });
  const now = Date.now();
  const row: FlowRow = {
    id: newId(now),
    project_id: projectId,
    module_id: input.module || null,
    type: input.type ?? 'program',
    name: checkName(input.name),
    sort: input.sort ?? 0,
    draft: JSON.stringify(doc),
    released: null,
    released_version: null,
    last_version: 0,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('flows').values(row).execute();
  return row;
}

/** Rename, sort, move between modules, or save the draft (validated). */
export async function updateFlow(db: Kysely<DB>, row: FlowRow, patch: FlowPatch): Promise<FlowRow> {
  const set: Partial<FlowRow> = { updated_at: Date.now() };
  if (patch.name !== undefined) set.name = checkName(patch.name);
  if (patch.sort !== undefined) set.sort = patch.sort;
  if (patch.module !== undefined) {
    await assertModule(db, row.project_id, patch.module);
    set.module_id = patch.module || null;
  }
  if (patch._process !== undefined || patch._option !== undefined)
    set.draft = JSON.stringify(await cleanDoc(db, row.project_id, patch, draftDoc(row), row.id));
  await db.updateTable('flows').set(set).where('id', '=', row.id).execute();
  // A released program's name and order are in the trigger list runs keep (run-cache.ts).
  if (row.released !== null && (set.name !== undefined || set.sort !== undefined))
    schemaChanged(row.project_id);
  return { ...row, ...set };
}

export async function removeFlow(db: Kysely<DB>, row: FlowRow): Promise<void> {
  await flushRuns(db);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('flow_versions').where('flow_id', '=', row.id).execute();
    await trx.deleteFrom('program_runs').where('flow_id', '=', row.id).execute();
    await trx.deleteFrom('flows').where('id', '=', row.id).execute();
  });
  schemaChanged(row.project_id);
}

/** Release the draft as the next numbered version: end users run it from now on. */
export async function releaseFlow(db: Kysely<DB>, row: FlowRow, userId: string | null): Promise<FlowRow> {
  // The draft is checked again: a table it names may have been removed since it was saved.
  const doc = await cleanDoc(db, row.project_id, {}, draftDoc(row), row.id);
  const released = await releaseDocument(db, row.id, JSON.stringify(doc), userId);
  schemaChanged(row.project_id);
  return { ...row, ...released };
}

export function listVersions(db: Kysely<DB>, row: FlowRow) {
  return listFlowVersions(db, row.id);
}

/** Put a released version back into the draft (release again to make it live). */
export async function restoreVersion(db: Kysely<DB>, row: FlowRow, version: number): Promise<FlowRow> {
  const document = await versionDocument(db, row.id, version);
  if (document === undefined) fail(E.PROGRAM_VERSION_NOT_FOUND);
  return { ...row, ...(await restoreDraft(db, row.id, document)) };
}

/** The fields of a document's input steps (top level only). */
export function inputFields(doc: FlowDocument): InputField[] {
  return doc._process
    .filter((s) => s._type === 'input')
    .flatMap((s) => (s._procedure.fields ?? []) as InputField[]);
}

/** The input checked against the input steps' fields again on the server; other keys are dropped. */
export function checkInput(doc: FlowDocument, data: unknown): Record<string, unknown> {
  const raw = (typeof data === 'object' && data !== null && !Array.isArray(data) ? data : {}) as Record<
    string,
    unknown
  >;
  const out: Record<string, unknown> = {};
  for (const f of inputFields(doc)) {
    const v = raw[f.key];
    const empty = v === undefined || v === null || v === '';
    if (empty) {
      if (f.required) fail(E.PROGRAM_INPUT, `${f.key}: required`);
      out[f.key] = null;
      continue;
    }
    if (f.type === 'number') {
      const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN;
      if (!Number.isFinite(n)) fail(E.PROGRAM_INPUT, `${f.key}: expected a number`);
      out[f.key] = n;
    } else if (f.type === 'date') {
      const t = parseDate(v);
      if (t === null) fail(E.PROGRAM_INPUT, `${f.key}: expected a date`);
      out[f.key] = t;
    } else if (f.type === 'boolean') {
      if (typeof v !== 'boolean') fail(E.PROGRAM_INPUT, `${f.key}: expected true or false`);
      out[f.key] = v;
    } else {
      if (typeof v !== 'string' || v.length > 20_000) fail(E.PROGRAM_INPUT, `${f.key}: expected text`);
      if (f.type === 'select' && !(f.options ?? []).includes(v as string))
        fail(E.PROGRAM_INPUT, `${f.key}: not one of the options`);
      out[f.key] = v;
    }
  }
  return out;
}

function cutJson(v: unknown, max: number): string {
  const s = JSON.stringify(v ?? null);
  return s.length > max ? JSON.stringify({ truncated: s.slice(0, max) }) : s;
}

export interface RunLogInput {
  projectId: string;
  flowId: string;
  version: number | null;
  userId: string | null;
  trigger: RunLogEntry['trigger'];
  input: unknown;
  result: RunResult;
  errorCode?: number | undefined;
  errorStep?: string | undefined;
  message?: string | undefined;
}

function runRow(entry: RunLogInput, at = Date.now()): ProgramRunsTable {
  return {
    id: entry.result.run,
    project_id: entry.projectId,
    flow_id: entry.flowId,
    version: entry.version,
    user_id: entry.userId,
    trigger: entry.trigger,
    input: cutJson(entry.input, PROGRAM_LIMITS.traceChars),
    status: entry.result.status,
    error_code: entry.errorCode ?? null,
    error_step: entry.errorStep ?? null,
    message: entry.message ?? null,
    duration_ms: entry.result.ms,
    trace: JSON.stringify(entry.result.trace),
    created_at: at,
  };
}

/** Retention is applied per flow at most every this many logged runs, or this often. */
const PRUNE_EVERY_RUNS = 50;
const PRUNE_EVERY_MS = 60_000;
const pruneState = new WeakMap<object, Map<string, { runs: number; at: number }>>();

/** Drop what is past the retention (age, and count per flow) when the flow is due for it. */
async function pruneRuns(db: Kysely<DB>, flowIds: Iterable<string>): Promise<void> {
  let state = pruneState.get(db);
  if (!state) {
    state = new Map();
    pruneState.set(db, state);
  }
  const now = Date.now();
  for (const flowId of flowIds) {
    const s = state.get(flowId) ?? { runs: PRUNE_EVERY_RUNS, at: 0 };
    s.runs += 1;
    state.set(flowId, s);
    if (s.runs < PRUNE_EVERY_RUNS && now - s.at < PRUNE_EVERY_MS) continue;
    s.runs = 0;
    s.at = now;
    await db
      .deleteFrom('program_runs')
      .where('flow_id', '=', flowId)
      .where('created_at', '<', now - PROGRAM_LIMITS.logKeepMs)
      .execute();
    const nth = await db
      .selectFrom('program_runs')
      .select('created_at')
      .where('flow_id', '=', flowId)
      .orderBy('created_at', 'desc')
      .offset(PROGRAM_LIMITS.logKeepRuns)
      .limit(1)
      .executeTakeFirst();
    if (nth)
      await db
        .deleteFrom('program_runs')
        .where('flow_id', '=', flowId)
        .where('created_at', '<=', nth.created_at)
        .execute();
  }
}

/** Log a run now, and apply the retention (age, and count per flow) when the flow is due. */
export async function logRun(db: Kysely<DB>, entry: RunLogInput): Promise<void> {
  await db.insertInto('program_runs').values(runRow(entry)).execute();
  await pruneRuns(db, [entry.flowId]);
}

interface LogQueue {
  /** Entries with their time: the rows (their input and trace as JSON) are built when written. */
  rows: Array<{ entry: RunLogInput; at: number }>;
  flushing: Promise<void> | null;
}
const logQueues = new WeakMap<object, LogQueue>();

/**
 * Log a run off the request's path: queued, and written with the others queued meanwhile in one
 * insert right after the answer leaves. Whoever reads the log in this process (listRuns, a flow's
 * removal, the app's close) flushes the queue first.
 */
export function queueRun(db: Kysely<DB>, entry: RunLogInput): void {
  let q = logQueues.get(db);
  if (!q) {
    q = { rows: [], flushing: null };
    logQueues.set(db, q);
  }
  q.rows.push({ entry, at: Date.now() });
  if (q.rows.length === 1) setImmediate(() => void flushRuns(db).catch(() => undefined));
}

/** Write the queued run log rows (see queueRun). */
export async function flushRuns(db: Kysely<DB>): Promise<void> {
  const q = logQueues.get(db);
  if (!q) return;
  while (q.flushing) await q.flushing;
  if (!q.rows.length) return;
  const rows = q.rows.splice(0).map((r) => runRow(r.entry, r.at));
  q.flushing = (async () => {
    for (let i = 0; i < rows.length; i += 100)
      await db
        .insertInto('program_runs')
        .values(rows.slice(i, i + 100))
        .execute();
    await pruneRuns(
      db,
      rows.map((r) => r.flow_id),
    );
  })();
  try {
    await q.flushing;
  } finally {
    q.flushing = null;
  }
}

export async function listRuns(db: Kysely<DB>, row: FlowRow, limit = 50): Promise<RunLogEntry[]> {
  await flushRuns(db);
  const rows = await db
    .selectFrom('program_runs')
    .selectAll()
    .where('flow_id', '=', row.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  const parse = (t: string): unknown => {
    try {
      return JSON.parse(t);
    } catch {
      return null;
    }
  };
  return rows.map((r) => ({
    _id: r.id,
    flow: r.flow_id,
    version: r.version,
    user: r.user_id,
    trigger: r.trigger,
    input: parse(r.input),
    status: r.status,
    errorCode: r.error_code,
    errorStep: r.error_step,
    message: r.message,
    ms: r.duration_ms,
    trace: (parse(r.trace) as TraceEntry[] | null) ?? [],
    createdAt: Number(r.created_at),
  }));
}

/** What a released program's `_option.trigger` says: the table and the writes that run it. */
export interface TriggerFlow {
  id: string;
  name: string;
  version: number;
  doc: FlowDocument;
  entity: string;
  on: ('create' | 'update' | 'remove')[];
}

/** Released documents never change for a (flow, version): parsed once per process. */
const triggerCache = new Map<string, TriggerFlow | null>();
const TRIGGER_CACHE_MAX = 5000;

function triggerOf(id: string, name: string, version: number, text: string | null): TriggerFlow | null {
  const doc = parseDoc(text);
  const t = doc._option.trigger as { on?: unknown } | undefined;
  const on = Array.isArray(t?.on) ? (t.on as TriggerFlow['on']) : [];
  if (!doc._option._entity || on.length === 0) return null;
  return { id, name, version, doc, entity: doc._option._entity, on };
}

/**
 * The released trigger programs of a project (`_option.trigger.on` and `_option._entity`), in sort
 * order. One light query; documents come from the cache.
 */
export async function projectTriggers(db: Kysely<DB>, projectId: string): Promise<TriggerFlow[]> {
  const { rows } = await compiledOnce(db, 'program.triggers', [projectId, 'program'], () =>
    db
      .selectFrom('flows')
      .select(['id', 'name', 'released_version'])
      .where('project_id', '=', projectId)
      .where('type', '=', 'program')
      .where('released_version', 'is not', null)
      .orderBy('sort')
      .orderBy('id'),
  );
  const key = (r: { id: string; released_version: number | null }) => `${r.id}:${r.released_version}`;
  const missing = rows.filter((r) => !triggerCache.has(key(r)));
  if (missing.length) {
    const texts = await db
      .selectFrom('flows')
      .select(['id', 'released', 'released_version'])
      .where(
        'id',
        'in',
        missing.map((r) => r.id),
      )
      .execute();
    for (const r of texts) {
      if (triggerCache.size >= TRIGGER_CACHE_MAX)
        triggerCache.delete(triggerCache.keys().next().value as string);
      triggerCache.set(key(r), triggerOf(r.id, '', Number(r.released_version), r.released));
    }
  }
  const out: TriggerFlow[] = [];
  for (const r of rows) {
    const t = triggerCache.get(key(r));
    if (t) out.push({ ...t, name: r.name });
  }
  return out;
}

/** Whether a trigger program runs on this kind of write to this table. */
export function triggers(
  t: TriggerFlow,
  entity: { id: string; code: string | null },
  op: 'create' | 'update' | 'remove',
): boolean {
  return t.on.includes(op) && (t.entity === entity.id || t.entity === entity.code);
}

/** The released programs a write of this kind to this table triggers, in sort order. */
export async function triggerFlowsFor(
  db: Kysely<DB>,
  projectId: string,
  entity: { id: string; code: string | null },
  op: 'create' | 'update' | 'remove',
): Promise<TriggerFlow[]> {
  return (await projectTriggers(db, projectId)).filter((t) => triggers(t, entity, op));
}
