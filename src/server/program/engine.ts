/**
 * The run model: a program's steps run in ONE database transaction. Every write of the run commits
 * together or not at all; a failing step rolls the whole run back and answers PROGRAM_STEP_FAILED
 * naming the step. Notices wait in an outbox and leave only after the commit. A test run is the same
 * run, rolled back at the end, answering what it would have changed.
 */

import { newId } from '../../shared/id.ts';
import type { FlowDocument, FlowStep, RunResult, TraceEntry } from '../../shared/program/index.ts';
import { PROGRAM_LIMITS } from '../../shared/program/index.ts';
import { QueryError } from '../../shared/query/error.ts';
import { type EntityMeta, metaOf } from '../data/meta.ts';
import { getRecord } from '../data/records.ts';
import { findEntity } from '../data/schema-service.ts';
import type { Database } from '../db/index.ts';
import { AppError, E } from '../errors.ts';
import { checkClock, limitError, type OutboxNotice, ReturnSignal, type RunContext } from './context.ts';
import { visibleValue } from './hidden.ts';
import { EXECUTORS } from './steps/index.ts';
import { allSteps } from './validate.ts';

export interface RunRequest {
  projectId: string;
  flowId: string;
  doc: FlowDocument;
  /** Checked input values (see checkInput). */
  input: Record<string, unknown>;
  /** The id of the record of the flow's table (`_option._entity`) the program runs on. */
  recordId?: string | undefined;
  user: RunContext['user'];
  test: boolean;
}

export interface RunOutcome {
  result: RunResult;
  outbox: OutboxNotice[];
  /** Set when the run failed: the coded error to answer. */
  error?: AppError;
  errorStep?: string;
}

class Rollback {}

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

/** The metas of every table the flow names, loaded before the transaction opens. */
async function loadMetas(database: Database, projectId: string, doc: FlowDocument) {
  const metas = new Map<string, EntityMeta>();
  const refs = new Set<string>();
  for (const s of allSteps(doc._process)) if (s._entity) refs.add(s._entity);
  if (doc._option._entity) refs.add(doc._option._entity);
  for (const ref of refs)
    metas.set(ref, await metaOf(database.db, await findEntity(database.db, projectId, ref)));
  return metas;
}

/** A step's failure as the run's answer: limits stay limits, anything else names the step. */
function stepFailure(step: FlowStep, err: unknown): AppError {
  if (err instanceof AppError && (err.def === E.PROGRAM_LIMIT || err.def === E.PROGRAM_STEP_FAILED))
    return err;
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

export async function runProgram(database: Database, req: RunRequest): Promise<RunOutcome> {
  const started = Date.now();
  const metas = await loadMetas(database, req.projectId, req.doc);
  const trace: TraceEntry[] = [];
  let failedStep: string | undefined;
  let failure: AppError | undefined;
  let output: unknown = null;
  let ctx: RunContext | undefined;

  const body = async (trx: RunContext['trx']) => {
    let record: Record<string, unknown> | null = null;
    if (req.recordId) {
      const table = req.doc._option._entity ? metas.get(req.doc._option._entity) : undefined;
      if (!table) throw new AppError(E.PROGRAM_INPUT, 'record: this program has no table to run on');
      record = await getRecord(trx, table, req.recordId);
    }
    const c: RunContext = {
      trx,
      dialect: database.dialect,
      projectId: req.projectId,
      flowId: req.flowId,
      test: req.test,
      user: req.user,
      input: req.input,
      record,
      state: {},
      metas,
      deadline: started + PROGRAM_LIMITS.maxRunMs,
      executed: 0,
      trace,
      changes: [],
      display: [],
      outbox: [],
      runSteps: async (list) => {
        for (const step of list) {
          c.executed += 1;
          if (c.executed > PROGRAM_LIMITS.maxExecutedSteps)
            throw limitError(`more than ${PROGRAM_LIMITS.maxExecutedSteps} steps executed`);
          checkClock(c);
          const t0 = Date.now();
          const entry: TraceEntry = { step: step._handle, type: step._type, ms: 0 };
          if (trace.length < MAX_TRACE) trace.push(entry);
          try {
            const out = await EXECUTORS[step._type]!(step, c);
            if (step._type !== 'set') c.state[step._handle] = out;
            entry.data = cut(out);
          } catch (err) {
            if (err instanceof ReturnSignal) {
              entry.data = cut(err.value);
              throw err;
            }
            const f = stepFailure(step, err);
            entry.error = f.message;
            failedStep ??= step._handle;
            throw f;
          } finally {
            entry.ms = Date.now() - t0;
          }
        }
      },
    };
    ctx = c;
    try {
      await c.runSteps(req.doc._process);
    } catch (err) {
      if (!(err instanceof ReturnSignal)) throw err;
      output = err.value;
    }
    // Checked before the commit: a run whose answer is too large changes nothing either.
    if (JSON.stringify({ o: output, d: c.display }).length > PROGRAM_LIMITS.maxOutputBytes)
      throw limitError(`the answer is larger than ${PROGRAM_LIMITS.maxOutputBytes} bytes`);
    if (req.test) throw new Rollback();
  };

  try {
    await database.db.transaction().execute(body);
  } catch (err) {
    if (!(err instanceof Rollback)) {
      if (err instanceof AppError) failure = err;
      else if (err instanceof QueryError) failure = new AppError(E.QUERY_INVALID, err.message);
      else throw err;
    }
  }
  const c = ctx as RunContext | undefined;
  output = c ? visibleValue(c, output) : output;
  const result: RunResult = {
    run: newId(),
    status: failure ? 'failed' : req.test ? 'rolled-back' : 'ok',
    output,
    display: c?.display ?? [],
    changes: c?.changes ?? [],
    entities: [...new Set((c?.changes ?? []).map((x) => x.entity))],
    trace,
    ms: Date.now() - started,
  };
  return {
    result,
    outbox: failure || req.test ? [] : (c?.outbox ?? []),
    ...(failure ? { error: failure } : {}),
    ...(failedStep ? { errorStep: failedStep } : {}),
  };
}
