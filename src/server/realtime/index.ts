import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Namespace, Server } from 'socket.io';
import { SOCKET_PATH } from '../../shared/realtime.ts';
import { clearSessionCache, onSessionsChanged } from '../account/session-cache.ts';
import type { RedisFanout } from './fanout.ts';
import { startRecordNotices } from './record-notices.ts';
import { createSocketServer, room } from './socket.ts';
import { DocStore } from './store.ts';
import { YjsServer } from './yjs-server.ts';

export interface RealtimeOptions {
  /** Unload a document this long after its last connection closed (default 30 s). */
  idleMs: number;
  /** Batch window for appending updates (default 100 ms; `kill -9` loses at most this much). */
  flushMs: number;
  /** Compact a document after this many appended updates (default 500; loading 500 small rows takes milliseconds). */
  compactEvery: number;
  /** Prefix of Redis channels and keys (default "lc"). */
  redisPrefix: string;
}

export interface Realtime {
  yjs: YjsServer;
  io: Server;
  nsp: Namespace;
  /** Close every socket.io and co-editing connection of a user, on every server process (kick, ban): 4001. */
  closeUserConnections(userId: string): Promise<void>;
  /**
   * Close a user's connections into one project, on every server process (the membership ended):
   * co-editing sockets with 4403; their other projects' connections stay.
   */
  closeMemberConnections(userId: string, projectId: string): Promise<void>;
  /** Whether Redis is in use, and a round trip to it (rejects when it does not answer). */
  redis: { used: boolean; ping(): Promise<void> };
}

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

const DEFAULTS: RealtimeOptions = { idleMs: 30_000, flushMs: 100, compactEvery: 500, redisPrefix: 'lc' };

/**
 * Both real-time channels on the app's HTTP server: socket.io at /io and co-editing at /yjs. With
 * `redisUrl` set, the socket.io Redis adapter and Redis fan-out of Y updates are loaded (and only then).
 */
export async function installRealtime(
  app: FastifyInstance,
  options: Partial<RealtimeOptions> = {},
): Promise<void> {
  const opts = { ...DEFAULTS, ...options };
  const db = app.database.db;
  const store = new DocStore(
    db,
    { flushMs: opts.flushMs, compactEvery: opts.compactEvery },
    app.log,
    app.database.sqlite,
  );

  let redis: Redis[] = [];
  let fanout: RedisFanout | undefined;
  let yjs: YjsServer | undefined;
  if (app.config.redisUrl) {
    const { Redis } = await import('ioredis');
    const { RedisFanout } = await import('./fanout.ts');
    const pub = new Redis(app.config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
    const sub = pub.duplicate();
    redis = [pub, sub];
    fanout = new RedisFanout(pub, sub, opts.redisPrefix, {
      onDoc: (docId, kind, payload) => yjs?.remote(docId, kind, payload),
      onCloseUser: (userId) => closeLocal(userId),
      onCloseMember: (userId, projectId) => closeMemberLocal(userId, projectId),
      onSessionsChanged: () => {
        // Another process changed sessions or rights: drop our cached sessions, re-check documents.
        clearSessionCache();
        void yjs?.recheck();
      },
      onDiscard: (docId) => void yjs?.discard(docId, false),
    });
    await fanout.start();
  }
  yjs = new YjsServer({ db, store, fanout, idleMs: opts.idleMs, log: app.log });

  const { io, nsp } = createSocketServer(app.server, db, app.config.socketRate);
  if (app.config.redisUrl) {
    const { createAdapter } = await import('@socket.io/redis-adapter');
    const pub = redis[0]!.duplicate();
    const sub = redis[0]!.duplicate();
    redis.push(pub, sub);
    io.adapter(createAdapter(pub, sub, { key: `${opts.redisPrefix}#sio` }));
  }

  app.server.on('upgrade', (req, socket, head) => {
    if (yjs.matches(req.url)) yjs.handleUpgrade(req, socket, head);
    else if (!req.url?.startsWith(`${SOCKET_PATH}/`)) socket.destroy();
  });

  function closeLocal(userId: string): void {
    yjs?.closeUser(userId);
    nsp.local.in(room.user(userId)).disconnectSockets(true);
  }

  function closeMemberLocal(userId: string, projectId: string): void {
    yjs?.closeMember(userId, projectId);
    nsp.local.in(room.member(projectId, userId)).disconnectSockets(true);
  }

  const realtime: Realtime = {
    yjs,
    io,
    nsp,
    async closeUserConnections(userId) {
      closeLocal(userId);
      await fanout?.closeUser(userId);
    },
    async closeMemberConnections(userId, projectId) {
      closeMemberLocal(userId, projectId);
      await fanout?.closeMember(userId, projectId);
    },
    redis: {
      used: redis.length > 0,
      async ping() {
        if (redis[0]) await redis[0].ping();
      },
    },
  };
  app.decorate('realtime', realtime);

  // Every committed write to a table tells the project's open views (whoever made it).
  const stopNotices = startRecordNotices(db, nsp, app.log);

  // A ban, kick, demotion or removal here acts at once on every process and on open documents.
  const stopListening = onSessionsChanged(() => {
    fanout?.sessionsChanged();
    void yjs.recheck();
  });

  // Before the database closes: drop connections, then write and compact every loaded document.
  app.addHook('preClose', async () => {
    stopListening();
    stopNotices();
    nsp.local.disconnectSockets(true);
    io.engine.close();
    await yjs.close();
    await Promise.resolve(nsp.adapter.close()).catch(() => {});
    await Promise.all(redis.map((r) => r.quit().catch(() => r.disconnect())));
  });
}
