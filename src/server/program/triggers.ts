/**
 * Record triggers of plain data writes (the data calls of builders and end users): the programs whose
 * released `_option.trigger` names the table and the kind of write run inside the write's transaction,
 * with the old and new row (`params.old`, `params.new`, `params.op`; `record` is the row). A failing
 * trigger fails the write (PROGRAM_TRIGGER_FAILED) and nothing changes. Their notices and HTTP requests
 * leave after the commit; each triggered run is logged (trigger `record`).
 */
import type { FastifyInstance } from 'fastify';
import { newId } from '../../shared/id.ts';
import type { RecordTriggers, WriteHooks } from '../data/record-hooks.ts';
import type { AppError } from '../errors.ts';
import type { RunContext } from './context.ts';
import { type TriggeredRun, triggerRoot } from './engine.ts';
import { deliverOutbox, httpOptions } from './outbox.ts';
import { logRun, type TriggerFlow } from './service.ts';

interface Ran {
  flow: TriggerFlow;
  r: Parameters<TriggeredRun>[1];
}

export function recordTriggers(app: FastifyInstance): RecordTriggers {
  return {
    begin(projectId, user) {
      let root: RunContext | null = null;
      const ran: Ran[] = [];
      const hooks: WriteHooks = {
        afterWrite: async (trx, ev) => {
          root ??= triggerRoot(
            trx,
            { dialect: app.database.dialect, projectId, user, http: httpOptions(app) },
            (flow, r) => ran.push({ flow, r }),
          );
          await root.hooks.afterWrite(trx, ev);
        },
      };
      return {
        hooks,
        async settle(committed) {
          if (!root) return;
          const c = root as RunContext;
          if (committed) await deliverOutbox(app, projectId, '', { notices: c.outbox, requests: c.requests });
          for (const { flow, r } of ran) {
            const error: AppError | undefined = r.error;
            await logRun(app.database.db, {
              projectId,
              flowId: flow.id,
              version: flow.version,
              userId: user?._id ?? null,
              trigger: 'record',
              input: r.input,
              result: {
                run: newId(),
                status: error ? 'failed' : committed ? 'ok' : 'rolled-back',
                output: null,
                display: [],
                changes: [],
                entities: [],
                trace: r.trace,
                ms: r.ms,
              },
              errorCode: error?.def.code,
              errorStep: (error?.data as { step?: string } | undefined)?.step ?? undefined,
              message: error?.message,
            }).catch((err) => app.log.warn({ err }, 'program run log failed'));
          }
        },
      };
    },
  };
}
