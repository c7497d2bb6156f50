/**
 * Record-change notices: once a write to a builder table made by this process is settled, the table's
 * project room on the socket channel hears an `action` of type `records` ({@link RECORDS_ACTION}) with
 * the table's id and code, never row data. Data views and live pages open anywhere then reload through
 * the data API with their own grants, whoever wrote: another view, a builder's rows grid, a page form,
 * a program, a scheduled task, an import or an API client.
 *
 * One notice per table at once, then at most one more per {@link NOTICE_MS} while writes continue (an
 * import of many batches is a few notices, the last after its last batch). With Redis the socket.io
 * adapter carries a notice to every process's sockets, so each write is told by the process that made
 * it only (write-clock.ts `onTablesSettled` does not hear other processes' writes).
 */
import type { Kysely } from 'kysely';
import type { Namespace } from 'socket.io';
import { packPayload, RECORDS_ACTION, type RecordsChange } from '../../shared/realtime.ts';
import { onTablesSettled } from '../data/write-clock.ts';
import type { DB } from '../db/schema.ts';
import { room } from './socket.ts';

/** At most one notice per table in this window after the first (the client's reload throttle is 100 ms). */
export const NOTICE_MS = 250;
const TABLE = /^e_([0-9a-f]{24})$/;

interface Pending {
  timer: NodeJS.Timeout;
  again: boolean;
}

export function startRecordNotices(
  db: Kysely<DB>,
  nsp: Namespace,
  log: { warn(obj: unknown, msg?: string): void },
): () => void {
  const waiting = new Map<string, Pending>();
  let closed = false;

  async function tell(entityId: string): Promise<void> {
    const e = await db
      .selectFrom('data_entities')
      .select(['project_id', 'code'])
      .where('id', '=', entityId)
      .executeTakeFirst();
    // A table removed meanwhile: nobody views it any more.
    if (!e || closed) return;
    const data: RecordsChange = { entity: entityId, code: e.code };
    nsp
      .to(room.project(e.project_id))
      .emit('action', packPayload({ from: null, page: null, type: RECORDS_ACTION, data }));
  }

  function send(entityId: string): void {
    tell(entityId).catch((err: unknown) => log.warn({ err, entity: entityId }, 'record notice not sent'));
  }

  function arm(entityId: string): void {
    const p: Pending = {
      again: false,
      timer: setTimeout(() => {
        waiting.delete(entityId);
        if (p.again && !closed) {
          send(entityId);
          arm(entityId);
        }
      }, NOTICE_MS),
    };
    p.timer.unref();
    waiting.set(entityId, p);
  }

  const stop = onTablesSettled((tables) => {
    if (closed) return;
    for (const t of tables) {
      const id = TABLE.exec(t)?.[1];
      if (!id) continue;
      const p = waiting.get(id);
      if (p) {
        p.again = true;
        continue;
      }
      send(id);
      arm(id);
    }
  });

  return () => {
    closed = true;
    stop();
    for (const p of waiting.values()) clearTimeout(p.timer);
    waiting.clear();
  };
}
