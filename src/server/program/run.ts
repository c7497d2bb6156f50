/** One run from a route: checked input, the engine, the log, and the outbox delivered after commit. */
import type { FastifyInstance } from 'fastify';
import type { FlowDocument, RunResult, TriggerTestInput } from '../../shared/program/index.ts';
import type { UserRow } from '../account/service.ts';
import { AppError } from '../errors.ts';
import { runProgram } from './engine.ts';
import { deliverOutbox, httpOptions } from './outbox.ts';
import { checkInput, type FlowRow, logRun, queueRun } from './service.ts';

export interface RunCall {
  flow: FlowRow;
  doc: FlowDocument;
  version: number | null;
  user: UserRow | null;
  trigger: 'exec' | 'test' | 'display' | 'schedule';
  data: unknown;
  recordId?: string | undefined;
  /** A record trigger's test run: the write to run it after (checkTriggerTest). */
  triggerTest?: TriggerTestInput | undefined;
}

/**
 * Runs a program and logs the run. Answers the result; a failed exec throws its coded error (the
 * run id in its data); a failed test run answers the result with the error, so the editor shows the trace.
 */
export async function runAndLog(
  app: FastifyInstance,
  call: RunCall,
): Promise<RunResult & { error?: { code: number; msg: string; step: string | null } }> {
  const input = checkInput(call.doc, call.data);
  const user = call.user
    ? { _id: call.user.id, account: call.user.account, nickname: call.user.nickname, phone: call.user.phone }
    : null;
  const outcome = await runProgram(app.database, {
    projectId: call.flow.project_id,
    flow: { id: call.flow.id, name: call.flow.name, doc: call.doc },
    input,
    recordId: call.recordId,
    user,
    test: call.trigger === 'test' || call.trigger === 'display',
    http: httpOptions(app),
    ...(call.triggerTest && call.trigger === 'test' ? { trigger: call.triggerTest } : {}),
  });
  const { result, error } = outcome;
  // End users' runs are logged off their request's path (written right after, in one batch); the
  // editor's test runs and schedules log at once.
  const log = call.trigger === 'exec' || call.trigger === 'display' ? queueRun : logRun;
  await log(app.database.db, {
    projectId: call.flow.project_id,
    flowId: call.flow.id,
    version: call.version,
    userId: call.user?.id ?? null,
    trigger: call.trigger,
    // A trigger's test run got the write's op, old and new row as its input.
    input: result.trigger
      ? { op: result.trigger.op, old: result.trigger.old, new: result.trigger.new }
      : input,
    result,
    errorCode: error?.def.code,
    errorStep: outcome.errorStep,
    message: error?.message,
  });
  if (!error) {
    await deliverOutbox(app, call.flow.project_id, call.flow.id, {
      notices: outcome.outbox,
      requests: outcome.requests,
    });
    return result;
  }
  if (call.trigger === 'test')
    return {
      ...result,
      error: { code: error.def.code, msg: error.message, step: outcome.errorStep ?? null },
    };
  throw new AppError(error.def, error.detail, {
    ...((error.data as object | undefined) ?? {}),
    run: result.run,
    step: outcome.errorStep ?? null,
  });
}
