import net from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  CLOSE,
  packPayload,
  SOCKET_NAMESPACE,
  SOCKET_PATH,
  unpackPayload,
} from '../../src/shared/realtime.ts';
import { seedRole } from '../helpers/access.ts';
import { testDialects } from '../helpers/db.ts';
import {
  addPage,
  createRealtimeEnv,
  type RealtimeEnv,
  type Running,
  type Seed,
  seed,
  spawnServer,
  synced,
  until,
  yClient,
} from '../helpers/realtime.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.setTimeout(500);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

const redisUp = process.env.TEST_REDIS_URL ? true : await reachable(6379);
// Two server processes share one database: PostgreSQL when it is here, else one SQLite file.
const dialect = (await testDialects()).includes('postgres') ? 'postgres' : 'sqlite';

describe.skipIf(!redisUp)(`two servers over Redis on ${dialect}`, () => {
  let env: RealtimeEnv;
  let a: Running;
  let b: Running;
  let s: Seed;
  const clients: ReturnType<typeof yClient>[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    env = await createRealtimeEnv(dialect);
    // A long batch window on A shows that B catches up on updates A has not stored yet.
    a = await env.start({ redisUrl: REDIS_URL, realtime: { flushMs: 3000, idleMs: 500 } });
    b = await env.start({ redisUrl: REDIS_URL, realtime: { flushMs: 20, idleMs: 500 } });
    s = await seed(a.app);
  });
  afterAll(async () => {
    for (const c of clients) c.provider.destroy();
    for (const sock of sockets) sock.close();
    await env?.cleanup();
  });

  const client = (target: { url: string }, token: string, page: string) => {
    const c = yClient(target.url, s.projectId, page, token);
    clients.push(c);
    return c;
  };

  it('a Y client on each server converges, presence included', async () => {
    const page = await addPage(a.app, s.projectId);
    const x = client(a, s.owner.token, page);
    const y = client(b, s.admin.token, page);
    await Promise.all([synced(x.provider), synced(y.provider)]);
    x.doc.getMap('page').set('from', 'A');
    y.doc.getArray('items').push(['from B']);
    await until(
      () => y.doc.getMap('page').get('from') === 'A' && x.doc.getArray('items').length === 1,
      5000,
      'cross-server convergence',
    );
    y.provider.awareness.setLocalStateField('user', { name: 'on B' });
    await until(
      () => [...x.provider.awareness.getStates().values()].some((st) => st.user?.name === 'on B'),
      5000,
      'cross-server awareness',
    );
    // Each edit is stored once, by the server that received it. Both servers may have seeded the
    // empty document from its draft at once; their seeds are the same bytes, so nothing doubles.
    await Promise.all([a.app.realtime.yjs.store.flush(), b.app.realtime.yjs.store.flush()]);
    const rows = await a.app.database.db
      .selectFrom('page_updates')
      .select('data')
      .where('doc_id', '=', page)
      .execute();
    const seeds = new Set<string>();
    let edits = 0;
    for (const r of rows) {
      const doc = new Y.Doc();
      Y.applyUpdate(doc, new Uint8Array(r.data));
      if (doc.getMap('widgets').size === 0 && doc.getMap('page').has('title'))
        seeds.add(Buffer.from(r.data).toString('base64'));
      else edits++;
      doc.destroy();
    }
    expect(edits).toBe(2);
    expect(seeds.size).toBe(1);
    const merged = new Y.Doc();
    for (const r of rows) Y.applyUpdate(merged, new Uint8Array(r.data));
    expect(merged.getMap('page').get('from')).toBe('A');
    expect(merged.getMap('page').get('title')).toBe(x.doc.getMap('page').get('title'));
  });

  it('a server loading a document later gets what another server has not stored yet', async () => {
    const page = await addPage(a.app, s.projectId);
    const x = client(a, s.owner.token, page);
    await synced(x.provider);
    x.doc.getText('t').insert(0, 'unflushed on A');
    await until(() => a.app.realtime.yjs.rooms.get(page)?.doc.getText('t').length === 14);
    const stored = await a.app.database.db
      .selectFrom('page_updates')
      .select('seq')
      .where('doc_id', '=', page)
      .execute();
    expect(stored.length).toBe(0);
    const y = client(b, s.admin.token, page);
    await synced(y.provider);
    await until(() => y.doc.getText('t').toString() === 'unflushed on A', 5000, 'catch-up through Redis');
  });

  it('socket.io actions cross servers, and closeUserConnections reaches the other server', async () => {
    const open = (target: Running, token: string) => {
      const sock = connect(`http://127.0.0.1:${target.port}${SOCKET_NAMESPACE}`, {
        path: SOCKET_PATH,
        auth: { token, project: s.projectId, platform: 'dev' },
        transports: ['websocket'],
        reconnection: false,
      });
      sockets.push(sock);
      return sock;
    };
    const onA = open(a, s.owner.token);
    const onB = open(b, s.admin.token);
    await until(() => onA.connected && onB.connected, 5000, 'connect');
    await onA.timeout(3000).emitWithAck('join', packPayload({}));
    await onB.timeout(3000).emitWithAck('join', packPayload({}));
    const got = new Promise<{ type: string }>((resolve) =>
      onB.once('action', (p: Uint8Array) => resolve(unpackPayload(p))),
    );
    await onA.timeout(3000).emitWithAck('action', packPayload({ type: 'card.move' }));
    expect((await got).type).toBe('card.move');

    const page = await addPage(a.app, s.projectId);
    const y = client(b, s.admin.token, page);
    await synced(y.provider);
    y.provider.shouldConnect = false;
    const t0 = Date.now();
    await a.app.realtime.closeUserConnections(s.admin.id);
    await until(() => !onB.connected && !y.provider.wsconnected, 1000, 'remote close');
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(onA.connected).toBe(true);
  });

  it('two server processes (main.ts) serve one page and converge', async () => {
    const extra = { REDIS_URL };
    const [p1, p2] = await Promise.all([spawnServer(env.config, extra), spawnServer(env.config, extra)]);
    try {
      const page = await addPage(a.app, s.projectId);
      const x = client(p1, s.owner.token, page);
      const y = client(p2, s.admin.token, page);
      await Promise.all([synced(x.provider, 10_000), synced(y.provider, 10_000)]);
      x.doc.getText('t').insert(0, 'one ');
      y.doc.getMap('m').set('k', 'two');
      await until(
        () => y.doc.getText('t').toString() === 'one ' && x.doc.getMap('m').get('k') === 'two',
        5000,
        'convergence across processes',
      );

      // Rights changed on one process act on the other at once: a demotion ends p2's open
      // connection (drafts are builders'), and a kick on p1 ends the session p2 had cached.
      const http = async (port: number, method: string, url: string, token: string, body?: unknown) => {
        const res = await fetch(`http://127.0.0.1:${port}${url}`, {
          method,
          headers: { token, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return (await res.json()) as { error: number };
      };
      const common = await seedRole(a.app, s.projectId, 'common');
      const demote = `/api/admin/user/${s.projectId}/${s.admin.id}/update`;
      const closed = new Promise<number>((res) =>
        y.provider.ws?.addEventListener('close', (e) => res(e.code)),
      );
      y.provider.shouldConnect = false;
      expect((await http(p1.port, 'POST', demote, s.owner.token, { role: common })).error).toBe(0);
      expect(await closed).toBe(CLOSE.FORBIDDEN);
      expect(x.provider.wsconnected).toBe(true);

      const info = '/api/common/user/userInfo';
      expect((await http(p2.port, 'GET', info, s.admin.token)).error).toBe(0);
      const kick = `/api/admin/user/${s.projectId}/${s.admin.id}/kick`;
      expect((await http(p1.port, 'GET', kick, s.owner.token)).error).toBe(0);
      // Within the session cache's 10 s lifetime, only the broadcast clear makes this fail at once.
      let answer = await http(p2.port, 'GET', info, s.admin.token);
      for (let i = 0; i < 10 && answer.error === 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        answer = await http(p2.port, 'GET', info, s.admin.token);
      }
      expect(answer.error).not.toBe(0);
    } finally {
      p1.proc.kill('SIGTERM');
      p2.proc.kill('SIGTERM');
    }
  }, 120_000);
});
