/**
 * The outbox: what a committed run sends outside the database. Socket notices (`notify`) to the users
 * named and the members of the roles named; fire-and-forget HTTP requests through safeFetch. Nothing
 * here runs for a failed or test run; a failed send is logged, it cannot undo the commit.
 */
import type { FastifyInstance } from 'fastify';
import { packPayload } from '../../shared/realtime.ts';
import { room } from '../realtime/socket.ts';
import { safeFetch } from '../util/safe-fetch.ts';
import type { HttpStepOptions, OutboxNotice, OutboxRequest } from './context.ts';

export function httpOptions(app: FastifyInstance): HttpStepOptions {
  return app.config.programHttp;
}

async function deliverNotices(
  app: FastifyInstance,
  projectId: string,
  flowId: string,
  notices: OutboxNotice[],
): Promise<void> {
  const nsp = app.realtime?.nsp;
  if (!nsp || notices.length === 0) return;
  for (const n of notices) {
    const users = new Set(n.users);
    if (n.roles.length) {
      const members = await app.database.db
        .selectFrom('project_members')
        .select('user_id')
        .where('project_id', '=', projectId)
        .where('role_id', 'in', n.roles)
        .where('status', '=', 'active')
        .execute();
      for (const m of members) users.add(m.user_id);
    }
    const payload = packPayload({
      from: null,
      data: { type: 'program', flow: n.flow || flowId, message: n.message },
    });
    for (const u of users) nsp.to(room.member(projectId, u)).emit('notify', payload);
  }
}

/** Sends the requests one after another, in the background; answers when all were tried. */
export async function sendRequests(app: FastifyInstance, requests: OutboxRequest[]): Promise<void> {
  const o = httpOptions(app);
  for (const r of requests) {
    try {
      await safeFetch(r.url, { ...o, method: r.method, headers: r.headers, body: r.body });
    } catch (err) {
      app.log.warn({ err, step: r.step, url: r.url }, 'program http request failed');
    }
  }
}

/** Everything a committed run queued. Notices are awaited; HTTP requests go on in the background. */
export async function deliverOutbox(
  app: FastifyInstance,
  projectId: string,
  flowId: string,
  outbox: { notices: OutboxNotice[]; requests: OutboxRequest[] },
): Promise<void> {
  await deliverNotices(app, projectId, flowId, outbox.notices).catch((err) =>
    app.log.warn({ err }, 'program notify failed'),
  );
  if (outbox.requests.length) void sendRequests(app, outbox.requests);
}
