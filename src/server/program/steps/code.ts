import { HANDLE, PROGRAM_LIMITS } from '../../../shared/program/index.ts';
import { AppError, E } from '../../errors.ts';
import { type Executor, limitError } from '../context.ts';
import { runCode } from '../quickjs.ts';

/**
 * JavaScript in QuickJS (quickjs.ts): no network, files or timers; at most
 * PROGRAM_LIMITS.codeTimeoutMs and codeMemoryBytes. The script sees `api.params`, `api.record`,
 * `api.user`, `api.state` (copies), may `api.setValue(name, v)` (a variable in `state` after the step)
 * and `api.notify(message)` (a notice to the user running the program, after the commit); what it
 * returns is the step's output.
 */
export const code: Executor = async (step, ctx) => {
  const left = ctx.deadline - Date.now();
  if (left <= 0) throw limitError(`the run took longer than ${PROGRAM_LIMITS.maxRunMs} ms`);
  const r = await runCode(
    String(step._procedure.source ?? ''),
    { params: ctx.input, record: ctx.record, user: ctx.user, state: ctx.state },
    {
      timeoutMs: Math.min(PROGRAM_LIMITS.codeTimeoutMs, left),
      memoryBytes: PROGRAM_LIMITS.codeMemoryBytes,
      maxAnswerChars: PROGRAM_LIMITS.maxOutputBytes,
    },
  );
  if (!r.ok)
    throw new AppError(
      r.failure.kind === 'error' ? E.PROGRAM_CODE_ERROR : E.PROGRAM_CODE_LIMIT,
      r.failure.message,
    );
  for (const [name, value] of Object.entries(r.answer.set ?? {})) {
    if (!HANDLE.test(name))
      throw new AppError(E.PROGRAM_CODE_ERROR, `setValue: ${name} is not a variable name`);
    ctx.state[name] = value;
  }
  if (ctx.user)
    for (const message of (r.answer.notices ?? []).slice(0, 20))
      ctx.outbox.push({ step: step._handle, flow: ctx.flowId, users: [ctx.user._id], roles: [], message });
  return r.answer.value;
};
