/**
 * The run model: a program's steps run in ONE database transaction. Every write of the run commits
 * together or not at all; a failing step rolls the whole run back and answers PROGRAM_STEP_FAILED
 * naming the step. Notices and fire-and-forget HTTP requests wait in an outbox and leave only after
 * the commit. A test run is the same run, rolled back at the end, answering what it would have changed.
 *
 * A run has frames: the program itself, the programs its call steps call, and the programs its record
 * writes trigger. Every frame shares the run's transaction, clock, step counter, trace, changes and
 * outbox; each has its own input, record and state. Frames nest at most PROGRAM_LIMITS.maxDepth deep.
 */

import { newId } from '../../shared/id.ts';
import type {
  FlowDocument,
  FlowStep,
  RunResult,
  TraceEntry,
  TriggerTestInput,
  TriggerTestWrite,
} from '../../shared/program/index.ts';
import { PROGRAM_LIMITS } from '../../shared/program/index.ts';
import { QueryError } from '../../shared/query/error.ts';
import { autoIndexOf, registerAutoIndex } from '../data/auto-index.ts';
import { type EntityMeta, metaOf } from '../data/meta.ts';
import type { RecordEvent, WriteHooks } from '../data/record-hooks.ts';
import { $insertReturning, $removeRecord, $updateReturning, getRecord } from '../data/records.ts';
import { settleWrites } from '../data/write-clock.ts';
import { bindConnection, compiledOnce, unbindConnection } from '../db/compiled.ts';
import type { Database, Dialect } from '../db/index.ts';
import { AppError, E } from '../errors.ts';
import {
  checkClock,
  type HttpStepOptions,
  limitError,
  type OutboxNotice,
  type OutboxRequest,
  ReturnSignal,
  type RunContext,
  type RunFrameFlow,
} from './context.ts';
import { visibleValue } from './hidden.ts';
import { runSchema } from './run-cache.ts';
import { projectTriggers, type TriggerFlow, triggerFlowsFor, triggers } from './service.ts';
import { EXECUTORS } from './steps/index.ts';
import { allSteps } from './validate.ts';

export interface RunRequest {
  projectId: string;
  flow: RunFrameFlow;
  /** Checked input values (see checkInput). */
  input: Record<string, unknown>;
  /** The id of the record of the flow's table (`_option._entity`) the program runs on. */
  recordId?: string | undefined;
  user: RunContext['user'];
  test: boolean;
  http: HttpStepOptions;
  /**
   * A record trigger's test run: the write to run it after, made first in the run's transaction (the
   * program gets its `op`, `old` and `new` as a triggered run does). Checked by the caller
   * (checkTriggerTest); only with `test`.
   */
  trigger?: TriggerTestInput | undefined;
}

export interface RunOutcome {
  result: RunResult;
  outbox: OutboxNotice[];
  requests: OutboxRequest[];
  /** Set when the run failed: the coded error to answer. */
  error?: AppError;
  errorStep?: string;
}

class Rollback {}

/** The write a trigger test runs after was refused: answered as the caller's error, not as a run. */
class WriteRefused {
  constructor(readonly error: AppError) {}
}

/**
 * Makes the write a trigger's test run is run after, in the run's transaction, and answers what the
 * program gets. Only the program under test hears it (other triggers of the table do not run); what
 * the program itself writes fires triggers as usual.
 */
async function $triggerWrite(
  trx: RunContext['trx'],
  table: EntityMeta,
  t: TriggerTestInput,
  userId: string | null,
): Promise<RecordEvent> {
  let event: RecordEvent | undefined;
  const capture: WriteHooks = {
    afterWrite: async (_trx, ev) => {
      if (ev.meta.entity.id === table.entity.id) event ??= ev;
    },
    wants: (meta) => meta.entity.id === table.entity.id,
  };
  try {
    if (t.op === 'create') await $insertReturning(trx, table, t.values ?? {}, userId, capture, true);
    else if (t.op === 'update')
      await $updateReturning(trx, table, t.record ?? '', t.values ?? {}, capture, {
        before: true,
        after: true,
      });
    else await $removeRecord(trx, table, t.record ?? '', capture);
  } catch (err) {
    if (!(err instanceof AppError) && !(err instanceof QueryError)) throw err;
    const what = err instanceof AppError && err.def === E.RECORD_NOT_FOUND ? 'record' : 'values';
    throw new WriteRefused(
      new AppError(E.PROGRAM_TEST_TRIGGER, `${what}: ${err.message}`, {
        cause: err instanceof AppError ? err.def.code : E.QUERY_INVALID.code,
      }),
    );
  }
  if (!event) throw new WriteRefused(new AppError(E.PROGRAM_TEST_TRIGGER, 'the write changed no row'));
  return event;
}

function cut(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  let s: string;
  try {
    s = JSON.stringify(v) ?? 'null';
  } catch {
    return '[unserialisable]';
  }
  return s.length > PROGRAM_LIMITS.traceChars ? `${s.slice(0, PROGRAM_LIMITS.traceChars)}…` : s;
}

const MAX_TRACE = 500;

/** A trace entry's step output, kept as is until its data is first read. */
const RAW = Symbol('trace output');
const TEXT = Symbol('trace data');
type LiveEntry = TraceEntry & { [RAW]?: unknown; [TEXT]?: string | undefined };

/**
 * Trace entries share this prototype: their `data` (the step's output cut as JSON, `cut`) is made when
 * first read — an end user's run answers no trace, and the log writes it after the answer (a step's
 * output is not changed by later steps: expressions do not mutate, code steps get copies) — and
 * `toJSON` writes it. A test run's answer settles them into plain objects (`settleTrace`).
 */
const TRACE_ENTRY = {
  get data(): string | undefined {
    const e = this as unknown as LiveEntry;
    if (!Object.hasOwn(e, TEXT)) e[TEXT] = cut(e[RAW]);
    return e[TEXT];
  },
  toJSON(this: LiveEntry): TraceEntry {
    return plainEntry(this);
  },
};

function traceEntry(step: FlowStep, flow: RunFrameFlow, depth: number): LiveEntry {
  const e = Object.create(TRACE_ENTRY) as LiveEntry;
  e.step = step._handle;
  e.type = step._type;
  e.ms = 0;
  if (depth > 0) {
    e.flow = flow.name;
    e.depth = depth;
  }
  return e;
}

function plainEntry(e: LiveEntry): TraceEntry {
  const out: TraceEntry = { step: e.step, type: e.type, ms: e.ms };
  if (e.flow !== undefined) out.flow = e.flow;
  if (e.depth !== undefined) out.depth = e.depth;
  const data = e.data;
  if (data !== undefined) out.data = data;
  if (e.error !== undefined) out.error = e.error;
  return out;
}

/** The trace entries as plain objects (for an answer that carries the trace). */
function settleTrace(trace: TraceEntry[]): void {
  for (let i = 0; i < trace.length; i++) trace[i] = plainEntry(trace[i] as LiveEntry);
}

const tablesOfDocs = new WeakMap<FlowDocument, Set<string>>();

/** The tables a flow names (worked out once per document: released documents are shared read-only). */
function tablesOfDoc(doc: FlowDocument): Set<string> {
  let refs = tablesOfDocs.get(doc);
  if (!refs) {
    refs = new Set<string>();
    for (const s of allSteps(doc._process)) if (s._entity) refs.add(s._entity);
    if (doc._option._entity) refs.add(doc._option._entity);
    tablesOfDocs.set(doc, refs);
  }
  return refs;
}

/**
 * The metas of every table the flow names not loaded yet (before the transaction: `db` is the pool):
 * one query for the tables' rows, the fields from the meta cache (valid per table version).
 */
async function loadMetas(
  db: RunContext['trx'],
  projectId: string,
  doc: FlowDocument,
  metas: Map<string, EntityMeta>,
): Promise<void> {
  const refs = [...tablesOfDoc(doc)].filter((r) => !metas.has(r));
  if (!refs.length) return;
  const { rows } = await compiledOnce(db, `program.metas|${refs.length}`, [projectId, ...refs, ...refs], () =>
    db
      .selectFrom('data_entities')
      .selectAll()
      .where('project_id', '=', projectId)
      .where((eb) => eb.or([eb('id', 'in', refs), eb('code', 'in', refs)])),
  );
  for (const ref of refs) {
    const row = rows.find((r) => r.id === ref) ?? rows.find((r) => r.code === ref);
    if (!row) throw new AppError(E.ENTITY_NOT_FOUND);
    metas.set(ref, await metaOf(db, row));
  }
}

/** Errors that keep their own code when a step fails with them (limits, refusals, nested failures). */
const OWN_CODE = new Set<number>([
  E.PROGRAM_LIMIT.code,
  E.PROGRAM_STEP_FAILED.code,
  E.PROGRAM_CALL_DEPTH.code,
  E.PROGRAM_HTTP_URL.code,
  E.PROGRAM_HTTP_REFUSED.code,
  E.PROGRAM_HTTP_FAILED.code,
  E.PROGRAM_HTTP_TOO_LARGE.code,
  E.PROGRAM_CODE_ERROR.code,
  E.PROGRAM_CODE_LIMIT.code,
  E.PROGRAM_TRIGGER_FAILED.code,
]);

/** A step's failure as the run's answer: limits and refusals keep their code, anything else names the step. */
function stepFailure(step: FlowStep, err: unknown): AppError {
  if (err instanceof AppError && OWN_CODE.has(err.def.code)) {
    if ((err.data as { step?: unknown } | undefined)?.step !== undefined) return err;
    return new AppError(err.def, `step ${step._handle} (${step._type}): ${err.detail ?? err.def.msg}`, {
      ...((err.data as object | undefined) ?? {}),
      step: step._handle,
      type: step._type,
    });
  }
  const cause =
    err instanceof AppError
      ? { code: err.def.code, msg: err.message }
      : err instanceof QueryError
        ? { code: E.QUERY_INVALID.code, msg: err.message }
        : { code: E.INTERNAL.code, msg: 'database error' };
  return new AppError(E.PROGRAM_STEP_FAILED, `step ${step._handle} (${step._type}): ${cause.msg}`, {
    step: step._handle,
    type: step._type,
    cause: cause.code,
  });
}

/** A triggered program's failure, as the failure of the write that triggered it. */
function triggerFailure(flow: RunFrameFlow, err: unknown): unknown {
  if (!(err instanceof AppError)) return err;
  if (err.def === E.PROGRAM_TRIGGER_FAILED || err.def === E.PROGRAM_LIMIT || err.def === E.PROGRAM_CALL_DEPTH)
    return err;
  const data = (err.data as { step?: string } | undefined) ?? {};
  return new AppError(E.PROGRAM_TRIGGER_FAILED, `program ${flow.name}: ${err.message}`, {
    flow: flow.id,
    step: data.step ?? null,
    cause: err.def.code,
  });
}

/** The parts of a run every frame shares. */
type RunBase = Omit<
  RunContext,
  'flowId' | 'doc' | 'stack' | 'input' | 'record' | 'state' | 'runSteps' | 'runFlow' | 'hooks'
>;

function newBase(
  trx: RunContext['trx'],
  o: {
    dialect: Dialect;
    projectId: string;
    user: RunContext['user'];
    test: boolean;
    http: HttpStepOptions;
    metas: Map<string, EntityMeta>;
    started: number;
    /** The project's trigger programs, when loaded before the run (else looked up per write). */
    triggers?: TriggerFlow[];
  },
): RunBase {
  return {
    trx,
    dialect: o.dialect,
    projectId: o.projectId,
    test: o.test,
    user: o.user,
    metas: o.metas,
    deadline: o.started + PROGRAM_LIMITS.maxRunMs,
    counter: { executed: 0 },
    trace: [],
    fault: {},
    changes: [],
    display: [],
    outbox: [],
    requests: [],
    http: o.http,
    triggerCache: new Map(),
    ...(o.triggers ? { triggers: o.triggers } : {}),
  };
}

/** What the root of a plain data write learns of each program it triggered (for the run log). */
export type TriggeredRun = (
  flow: TriggerFlow,
  r: { input: Record<string, unknown>; trace: TraceEntry[]; ms: number; error?: AppError },
) => void;

/** Runs the programs a record write triggers, one frame deeper, never one already running. */
async function fireTriggers(c: RunContext, ev: RecordEvent, observe?: TriggeredRun): Promise<void> {
  const key = `${ev.meta.entity.id}:${ev.op}`;
  let found = c.triggerCache.get(key);
  if (!found) {
    found = c.triggers
      ? Promise.resolve(c.triggers.filter((t) => triggers(t, ev.meta.entity, ev.op)))
      : triggerFlowsFor(c.trx, c.projectId, ev.meta.entity, ev.op);
    c.triggerCache.set(key, found);
  }
  const flows = await found;
  for (const f of flows) {
    if (f.id === c.flowId || c.stack.includes(f.id)) continue;
    const flow = { id: f.id, name: f.name, doc: f.doc };
    const input = { op: ev.op, old: ev.before, new: ev.after };
    const t0 = Date.now();
    const i0 = c.trace.length;
    try {
      await c.runFlow(flow, input, ev.after ?? ev.before);
      observe?.(f, { input, trace: c.trace.slice(i0), ms: Date.now() - t0 });
    } catch (err) {
      const e = triggerFailure(flow, err);
      if (e instanceof AppError)
        observe?.(f, { input, trace: c.trace.slice(i0), ms: Date.now() - t0, error: e });
      throw e;
    }
  }
}

/** A frame of the run: one flow's steps with their own input, record and state. */
function frame(
  base: RunBase,
  flow: RunFrameFlow,
  input: Record<string, unknown>,
  record: Record<string, unknown> | null,
  stack: string[],
): RunContext {
  const depth = stack.length;
  const c: RunContext = {
    ...base,
    flowId: flow.id,
    doc: flow.doc,
    stack,
    input,
    record,
    state: {},
    runSteps: async (list) => {
      for (const step of list) {
        c.counter.executed += 1;
        if (c.counter.executed > PROGRAM_LIMITS.maxExecutedSteps)
          throw limitError(`more than ${PROGRAM_LIMITS.maxExecutedSteps} steps executed`);
        checkClock(c);
        const t0 = Date.now();
        const entry = traceEntry(step, flow, depth);
        if (c.trace.length < MAX_TRACE) c.trace.push(entry);
        try {
          let out = EXECUTORS[step._type]!(step, c);
          if (out instanceof Promise) out = await out;
          if (step._type !== 'set') c.state[step._handle] = out;
          entry[RAW] = out;
        } catch (err) {
          if (err instanceof ReturnSignal) {
            entry[RAW] = err.value;
            throw err;
          }
          const f = stepFailure(step, err);
          entry.error = f.message;
          c.fault.step ??= step._handle;
          throw f;
        } finally {
          entry.ms = Date.now() - t0;
        }
      }
    },
    runFlow: async (callee, calleeInput, calleeRecord) => {
      if (depth + 1 >= PROGRAM_LIMITS.maxDepth)
        throw new AppError(
          E.PROGRAM_CALL_DEPTH,
          `${callee.name}: more than ${PROGRAM_LIMITS.maxDepth} programs deep`,
        );
      await loadMetas(c.trx, c.projectId, callee.doc, c.metas);
      return runBody(frame(base, callee, calleeInput, calleeRecord, [...stack, flow.id]), callee.doc);
    },
    hooks: {
      afterWrite: (_trx, ev) => fireTriggers(c, ev),
      // With the project's triggers known, a write nothing listens to reads no rows for them.
      ...(base.triggers
        ? {
            wants: (meta, op) =>
              base.triggers!.some(
                (t) => triggers(t, meta.entity, op) && t.id !== flow.id && !stack.includes(t.id),
              ),
          }
        : {}),
    },
  };
  return c;
}

/** A frame's steps; answers what its return step returned (null without one). */
async function runBody(c: RunContext, doc: FlowDocument): Promise<unknown> {
  try {
    await c.runSteps(doc._process);
    return null;
  } catch (err) {
    if (!(err instanceof ReturnSignal)) throw err;
    return err.value;
  }
}

export async function runProgram(database: Database, req: RunRequest): Promise<RunOutcome> {
  const started = Date.now();
  // The tables' metas and the project's triggers, read before the transaction unless kept (run-cache.ts).
  const { metas, triggers: triggerList } = await runSchema(
    database,
    req.projectId,
    tablesOfDoc(req.flow.doc),
    (m) => loadMetas(database.db, req.projectId, req.flow.doc, m),
    () => projectTriggers(database.db, req.projectId),
  );
  let failure: AppError | undefined;
  let output: unknown = null;
  let ctx: RunContext | undefined;
  let written: TriggerTestWrite | undefined;

  let opened: RunContext['trx'] | undefined;
  const indexer = autoIndexOf(database.db);
  const body = async (trx: RunContext['trx']) => {
    opened = trx;
    // A run's query steps count toward the indexes their shapes need, as list queries do (a build waits
    // for open transactions: db/sqlite-gate.ts).
    if (indexer) registerAutoIndex(trx, indexer);
    let record: Record<string, unknown> | null = null;
    let input = req.input;
    const table = req.flow.doc._option._entity ? metas.get(req.flow.doc._option._entity) : undefined;
    if (req.trigger && req.test) {
      if (!table) throw new WriteRefused(new AppError(E.PROGRAM_NO_TABLE));
      const ev = await $triggerWrite(trx, table, req.trigger, req.user?._id ?? null);
      written = { op: ev.op, entity: table.entity.id, id: ev.id, old: ev.before, new: ev.after };
      input = { op: ev.op, old: ev.before, new: ev.after };
      record = ev.after ?? ev.before;
    } else if (req.recordId) {
      if (!table) throw new AppError(E.PROGRAM_INPUT, 'record: this program has no table to run on');
      record = await getRecord(trx, table, req.recordId);
    }
    const base = newBase(trx, {
      dialect: database.dialect,
      projectId: req.projectId,
      user: req.user,
      test: req.test,
      http: req.http,
      metas,
      started,
      triggers: triggerList,
    });
    const c = frame(base, req.flow, input, record, []);
    ctx = c;
    output = await runBody(c, req.flow.doc);
    // Checked before the commit: a run whose answer is too large changes nothing either.
    if (JSON.stringify({ o: output, d: c.display }).length > PROGRAM_LIMITS.maxOutputBytes)
      throw limitError(`the answer is larger than ${PROGRAM_LIMITS.maxOutputBytes} bytes`);
    if (req.test) throw new Rollback();
  };

  try {
    await database.db.transaction().execute(async (trx) => {
      // The run's kept statements go straight to its connection while its body runs (db/compiled.ts).
      await bindConnection(trx);
      try {
        await body(trx);
      } finally {
        unbindConnection(trx);
      }
    });
  } catch (err) {
    if (opened) settleWrites(opened);
    opened = undefined;
    if (err instanceof WriteRefused) throw err.error;
    if (!(err instanceof Rollback)) {
      if (err instanceof AppError) failure = err;
      else if (err instanceof QueryError) failure = new AppError(E.QUERY_INVALID, err.message);
      else throw err;
    }
  }
  if (opened) settleWrites(opened);
  const c = ctx as RunContext | undefined;
  output = c ? visibleValue(c, output) : output;
  if (req.test && c) settleTrace(c.trace);
  const result: RunResult = {
    run: newId(),
    status: failure ? 'failed' : req.test ? 'rolled-back' : 'ok',
    output,
    display: c?.display ?? [],
    changes: c?.changes ?? [],
    entities: [...new Set((c?.changes ?? []).map((x) => x.entity))],
    trace: c?.trace ?? [],
    ms: Date.now() - started,
    ...(written ? { trigger: written } : {}),
  };
  const sends = !failure && !req.test;
  return {
    result,
    outbox: sends ? (c?.outbox ?? []) : [],
    requests: sends ? (c?.requests ?? []) : [],
    ...(failure ? { error: failure } : {}),
    ...(c?.fault.step ? { errorStep: c.fault.step } : {}),
  };
}

/**
 * The root of the programs a plain data write triggers (records-plugin → program/triggers.ts): a frame
 * with no steps of its own whose writes' triggers run one frame deeper, in the write's transaction.
 */
export function triggerRoot(
  trx: RunContext['trx'],
  o: { dialect: Dialect; projectId: string; user: RunContext['user']; http: HttpStepOptions },
  observe: TriggeredRun,
): RunContext {
  const base = newBase(trx, { ...o, test: false, metas: new Map(), started: Date.now() });
  const root = frame(base, { id: '', name: '', doc: { _process: [], _option: {} } }, {}, null, []);
  root.hooks = { afterWrite: (_trx, ev) => fireTriggers(root, ev, observe) };
  return root;
}
