/** One run from a route: checked input, the engine, the log, and the outbox delivered after commit. */
import type { FastifyInstance } from 'fastify';
import type { FlowDocument, RunResult } from '../../shared/program/index.ts';
import { packPayload } from '../../shared/realtime.ts';
import type { UserRow } from '../account/service.ts';
import { AppError } from '../errors.ts';
import { room } from '../realtime/socket.ts';
import type { OutboxNotice } from './context.ts';
import { runProgram } from './engine.ts';
import { checkInput, type FlowRow, logRun } from './service.ts';

export interface RunCall {
  flow: FlowRow;
  doc: FlowDocument;
  version: number | null;
  user: UserRow | null;
  trigger: 'exec' | 'test' | 'display' | 'schedule';
  data: unknown;
  recordId?: string | undefined;
}

/** Sends the notices of a committed run: to the users named, and to the members of the roles named. */
async function deliver(app: FastifyInstance, flow: FlowRow, notices: OutboxNotice[]): Promise<void> {
  const nsp = app.realtime?.nsp;
  if (!nsp || notices.length === 0) return;
  for (const n of notices) {
    const users = new Set(n.users);
    if (n.roles.length) {
      const members = await app.database.db
        .selectFrom('project_members')
        .select('user_id')
        .where('project_id', '=', flow.project_id)
        .where('role_id', 'in', n.roles)
        .where('status', '=', 'active')
        .execute();
      for (const m of members) users.add(m.user_id);
    }
    const payload = packPayload({ from: null, data: { type: 'program', flow: flow.id, message: n.message } });
    for (const u of users) nsp.to(room.member(flow.project_id, u)).emit('notify', payload);
  }
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
    flowId: call.flow.id,
    doc: call.doc,
    input,
    recordId: call.recordId,
    user,
    test: call.trigger === 'test' || call.trigger === 'display',
  });
  const { result, error } = outcome;
  await logRun(app.database.db, {
    projectId: call.flow.project_id,
    flowId: call.flow.id,
    version: call.version,
    userId: call.user?.id ?? null,
    trigger: call.trigger,
    input,
    result,
    errorCode: error?.def.code,
    errorStep: outcome.errorStep,
    message: error?.message,
  });
  if (!error) {
    await deliver(app, call.flow, outcome.outbox).catch((err) =>
      app.log.warn({ err }, 'program notify failed'),
    );
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
