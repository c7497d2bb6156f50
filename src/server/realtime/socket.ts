import type { Server as HttpServer } from 'node:http';
import type { Kysely } from 'kysely';
import { type Namespace, Server, type Socket } from 'socket.io';
import { gzipPlainSize } from '../../shared/envelope-core.ts';
import { E } from '../../shared/errors.ts';
import {
  CLOSE,
  packPayload,
  SOCKET_HEARTBEAT_MS,
  SOCKET_MAX_MESSAGE,
  SOCKET_MAX_PLAIN,
  SOCKET_NAMESPACE,
  SOCKET_PATH,
  type SocketPlatform,
  unpackPayload,
} from '../../shared/realtime.ts';
import { can } from '../access/decide.ts';
import { resolveToken } from '../account/service.ts';
import type { DB } from '../db/schema.ts';
import { findProject, membership } from '../project/service.ts';
import { DEFAULT_SOCKET_RATE, SocketGuard, type SocketRate, type Verdict } from './socket-guard.ts';

const ID = /^[0-9a-f]{24}$/;

interface SocketData {
  userId: string;
  name: string;
  projectId: string;
  role: string;
  platform: SocketPlatform;
  token: string;
  lastPing: number;
}

type AppSocket = Socket<Record<string, never>, Record<string, never>, Record<string, never>, SocketData>;
type Ack = (payload: Uint8Array) => void;

/** Rooms: a project, a page of a project, a user within a project, and a user anywhere (for kicks). */
export const room = {
  project: (p: string) => `p:${p}`,
  page: (p: string, page: string) => `pg:${p}:${page}`,
  member: (p: string, u: string) => `m:${p}:${u}`,
  user: (u: string) => `u:${u}`,
};

function authError(code: number, message: string): Error {
  const err = new Error(message) as Error & { data: { code: number } };
  err.data = { code };
  return err;
}

/**
 * The socket channel (spec "Real-time channel"): path /io, namespace /app, auth {token, project,
 * platform}; events join, enter, leave, ping, action, notify; every payload and ack is gzip JSON.
 * Limits: a message larger than SOCKET_MAX_MESSAGE closes the connection (socket.io), a payload
 * announcing more than SOCKET_MAX_PLAIN bytes of JSON is refused (1002) before it is inflated and one
 * that inflates past what it announced is refused (1000) at that byte; each socket may send
 * `rate.events` events per window (1005 past that), and is disconnected once its refusals in a window
 * pass `rate.strikes`.
 */
export function createSocketServer(
  http: HttpServer,
  db: Kysely<DB>,
  rate: SocketRate = DEFAULT_SOCKET_RATE,
): { io: Server; nsp: Namespace } {
  const io = new Server(http, {
    path: SOCKET_PATH,
    serveClient: false,
    // Other upgrade paths (the co-editing endpoint) are handled beside us.
    destroyUpgrade: false,
    maxHttpBufferSize: SOCKET_MAX_MESSAGE,
  });
  const nsp = io.of(SOCKET_NAMESPACE);

  nsp.use(async (socket, next) => {
    const auth = (socket.handshake.auth ?? {}) as { token?: unknown; project?: unknown; platform?: unknown };
    const token = typeof auth.token === 'string' ? auth.token : '';
    const projectId = typeof auth.project === 'string' ? auth.project : '';
    const platform = auth.platform === 'app' ? 'app' : auth.platform === 'dev' ? 'dev' : null;
    try {
      const who = token ? await resolveToken(db, token) : undefined;
      if (who?.user.status !== 'active') return next(authError(CLOSE.TOKEN, 'token invalid or expired'));
      if (!ID.test(projectId) || !platform)
        return next(authError(CLOSE.NOT_FOUND, 'project and platform required'));
      const m = await membership(db, projectId, who.user.id);
      if (m?.status !== 'active') return next(authError(CLOSE.FORBIDDEN, 'not a member of this project'));
      socket.data = {
        userId: who.user.id,
        name: who.user.nickname || who.user.account || '',
        projectId,
        role: m.role_type,
        platform,
        token,
        lastPing: 0,
      };
      next();
    } catch (err) {
      next(err as Error);
    }
  });

  nsp.on('connection', (raw) => {
    const socket = raw as unknown as AppSocket;
    const d = socket.data;
    const me = { id: d.userId, name: d.name };
    void socket.join([room.user(d.userId), room.member(d.projectId, d.userId)]);

    const guard = new SocketGuard(rate);
    /** Answer a refusal (when the event asked for an answer); disconnect once refusals pile up. */
    const refuse = (verdict: Verdict, reply: Ack | undefined, code: number, msg: string) => {
      reply?.(packPayload({ error: code, msg }));
      if (verdict === 'disconnect') socket.disconnect(true);
    };
    // Every incoming event (known or not) is counted before its payload is looked at.
    (socket as unknown as Socket).use((packet, next) => {
      const verdict = guard.event();
      if (verdict === 'ok') return next();
      const last = packet[packet.length - 1];
      refuse(
        verdict,
        typeof last === 'function' ? (last as Ack) : undefined,
        E.RATE_LIMITED.code,
        'too many events',
      );
    });

    /** Register a handler taking a gzip payload and answering a gzip ack. */
    const on = (event: string, handler: (body: Record<string, unknown>) => Promise<unknown> | unknown) => {
      (socket as unknown as Socket).on(event, async (payload: unknown, ack?: unknown) => {
        const reply = typeof ack === 'function' ? (ack as Ack) : undefined;
        let body: Record<string, unknown>;
        if (payload instanceof Uint8Array && gzipPlainSize(payload) > SOCKET_MAX_PLAIN) {
          refuse(guard.strike(), reply, E.TOO_LARGE.code, `payload larger than ${SOCKET_MAX_PLAIN} bytes`);
          return;
        }
        try {
          const value = payload == null ? {} : unpackPayload(payload as Uint8Array, SOCKET_MAX_PLAIN);
          body = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
        } catch {
          refuse(guard.strike(), reply, E.BAD_REQUEST.code, 'payload must be gzip-compressed JSON');
          return;
        }
        try {
          const data = await handler(body);
          reply?.(packPayload({ error: 0, data: data ?? null }));
        } catch (err) {
          const e = err as { code?: number; message?: string };
          reply?.(packPayload({ error: e.code ?? 1, msg: e.message ?? 'error' }));
        }
      });
    };
    const fail = (code: number, message: string): never => {
      throw Object.assign(new Error(message), { code });
    };
    const emit = (target: { emit(ev: string, p: Uint8Array): unknown }, event: string, value: unknown) =>
      target.emit(event, packPayload(value));
    const pageOf = (body: Record<string, unknown>) => {
      const page = body.page;
      if (typeof page !== 'string' || !ID.test(page)) fail(1000, 'page required');
      return page as string;
    };

    on('join', async () => {
      const r = room.project(d.projectId);
      await socket.join(r);
      emit(socket.to(r), 'join', { user: me, project: d.projectId });
      return { project: d.projectId, platform: d.platform, user: me };
    });

    on('enter', async (body) => {
      const page = pageOf(body);
      const found = await db
        .selectFrom('pages')
        .select('id')
        .where('id', '=', page)
        .where('project_id', '=', d.projectId)
        .executeTakeFirst();
      if (!found) fail(1202, 'page not found');
      // Only those who may see the page join its room (members' rights may have changed since connect).
      const who = await resolveToken(db, d.token);
      const project = await findProject(db, d.projectId);
      if (!who || !project) fail(CLOSE.TOKEN, 'token invalid or expired');
      const seen = await can(
        db,
        { user: who!.user, session: who!.session },
        project!,
        { kind: 'page', id: page },
        'read',
      );
      if (!seen.allow) fail(seen.error.code, seen.reason);
      const r = room.page(d.projectId, page);
      await socket.join(r);
      emit(socket.to(r), 'enter', { user: me, page });
      const peers = await nsp.in(r).fetchSockets();
      const users = new Map<string, { id: string; name: string }>();
      for (const s of peers) {
        const pd = s.data as SocketData;
        users.set(pd.userId, { id: pd.userId, name: pd.name });
      }
      return { page, users: [...users.values()] };
    });

    on('leave', async (body) => {
      const page = pageOf(body);
      const r = room.page(d.projectId, page);
      await socket.leave(r);
      emit(socket.to(r), 'leave', { user: me, page });
      return { page };
    });

    // Heartbeat: honoured at most once per throttle window; each honoured ping re-checks the session.
    on('ping', async () => {
      const now = Date.now();
      if (now - d.lastPing < SOCKET_HEARTBEAT_MS) {
        return { throttled: true, next: d.lastPing + SOCKET_HEARTBEAT_MS - now };
      }
      d.lastPing = now;
      const who = await resolveToken(db, d.token);
      if (who?.user.status !== 'active') {
        setImmediate(() => socket.disconnect(true));
        fail(CLOSE.TOKEN, 'token invalid or expired');
      }
      return { t: now, next: SOCKET_HEARTBEAT_MS };
    });

    // action: to everyone else on the page (after enter) or in the project (after join).
    on('action', (body) => {
      const page = body.page === undefined ? undefined : pageOf(body);
      const r = page ? room.page(d.projectId, page) : room.project(d.projectId);
      if (!socket.rooms.has(r)) fail(1102, page ? 'enter the page first' : 'join the project first');
      emit(socket.to(r), 'action', {
        from: me,
        page: page ?? null,
        type: body.type ?? null,
        data: body.data ?? null,
      });
      return { delivered: true };
    });

    // notify: to every socket of one user in this project.
    on('notify', (body) => {
      const to = body.user;
      if (typeof to !== 'string' || !ID.test(to)) fail(1000, 'user required');
      emit(nsp.to(room.member(d.projectId, to as string)), 'notify', { from: me, data: body.data ?? null });
      return { sent: true };
    });
  });

  return { io, nsp };
}
