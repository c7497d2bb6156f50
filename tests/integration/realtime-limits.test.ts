import { gzipSync } from 'node:zlib';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  packPayload,
  SOCKET_EVENTS,
  SOCKET_MAX_MESSAGE,
  SOCKET_MAX_PLAIN,
  SOCKET_NAMESPACE,
  SOCKET_PATH,
  unpackPayload,
} from '../../src/shared/realtime.ts';
import { testDialects } from '../helpers/db.ts';
import { createRealtimeEnv, type RealtimeEnv, type Running, type Seed, seed } from '../helpers/realtime.ts';

const dialects = await testDialects();
type Answer = { error: number; data?: unknown; msg?: string };

/**
 * A gzip bomb: `members` gzip members of 16 MiB of zeros each (about 16 KiB apiece), which a plain
 * gunzip inflates to members × 16 MiB. `trailer` overwrites the size the last member announces.
 */
function bomb(members: number, trailer?: number): Buffer {
  const one = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });
  const out = Buffer.concat(Array.from({ length: members }, () => one));
  if (trailer !== undefined) out.writeUInt32LE(trailer, out.length - 4);
  return out;
}

describe.each(dialects.slice(0, 1))('socket channel limits on %s', (dialect) => {
  let env: RealtimeEnv;
  let r: Running;
  let s: Seed;
  const sockets: Socket[] = [];
  const open = (token: string) => {
    const sock = connect(`http://127.0.0.1:${r.port}${SOCKET_NAMESPACE}`, {
      path: SOCKET_PATH,
      auth: { token, project: s.projectId, platform: 'dev' },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(sock);
    return sock;
  };
  const connected = (sock: Socket) =>
    new Promise<void>((resolve, reject) => {
      if (sock.connected) return resolve();
      sock.once('connect', () => resolve());
      sock.once('connect_error', reject);
    });
  const disconnected = (sock: Socket) =>
    new Promise<string>((resolve) => {
      if (!sock.connected) return resolve('already');
      sock.once('disconnect', (reason) => resolve(reason));
    });
  const ask = async (sock: Socket, event: string, bytes: Uint8Array) =>
    unpackPayload<Answer>(await sock.timeout(10_000).emitWithAck(event, bytes));

  beforeAll(async () => {
    env = await createRealtimeEnv(dialect);
    env.config.socketRate = { events: 1000, windowMs: 10_000, strikes: 1000 };
    r = await env.start();
    s = await seed(r.app);
  });
  afterAll(async () => {
    for (const sock of sockets) sock.close();
    await env?.cleanup();
  });

  it('refuses gzip bombs on every event without inflating them; memory stays flat', async () => {
    // Built before measuring: the test's own buffers are not the server's growth.
    const big = bomb(60); // ~1 MiB on the wire, ~960 MiB inflated
    const small = bomb(5); // fits one message, ~80 MiB inflated, honest trailer
    const liar = bomb(5, 100); // same, trailer claims 100 bytes
    expect(big.length).toBeGreaterThan(900 * 1024);
    expect(big.length).toBeGreaterThan(SOCKET_MAX_MESSAGE);
    expect(small.length).toBeLessThan(SOCKET_MAX_MESSAGE - 1024);

    const warm = open(s.owner.token);
    await connected(warm);
    expect((await ask(warm, 'join', packPayload({}))).error).toBe(0);

    /** Send each kind of bomb on `event`; every one must be refused. */
    const round = async (event: string) => {
      // Larger than a message may be: socket.io drops the connection without reading it whole.
      const a = open(s.owner.token);
      await connected(a);
      const gone = disconnected(a);
      let answered = false;
      a.emit(event, big, () => {
        answered = true;
      });
      expect(await gone).toBe('transport close');
      expect(answered).toBe(false);

      // Within a message: refused from the trailer (1002) or at the first byte past it (1000).
      const b = open(s.owner.token);
      await connected(b);
      const honest = await ask(b, event, small);
      expect(honest.error).toBe(1002);
      expect(honest.msg).toContain(String(SOCKET_MAX_PLAIN));
      expect((await ask(b, event, liar)).error).toBe(1000);
      // Not bytes at all: a number must not become an allocation of that size.
      expect(unpackPayload<Answer>(await b.timeout(5000).emitWithAck(event, 2 ** 30)).error).toBe(1000);
      // The connection still serves ordinary payloads.
      expect((await ask(b, 'join', packPayload({}))).error).toBe(0);
      b.close();
    };
    // One round first, so the buffers this test's own client and sockets need are already there.
    await round('ping');
    const rssBefore = process.memoryUsage().rss;
    for (const event of SOCKET_EVENTS) await round(event);
    // The test's client shares the process (its 1 MiB frames, its sockets): about 13 MiB of noise here.
    // Unbounded, each small bomb alone inflated 80 MiB and each large one about 1 GiB.
    const grown = process.memoryUsage().rss - rssBefore;
    expect(grown).toBeLessThan(32 * 1024 * 1024);
  });

  it('limits events per socket: coded refusals first, then a disconnect', async () => {
    const env2 = await createRealtimeEnv(dialect);
    env2.config.socketRate = { events: 5, windowMs: 600_000, strikes: 3 };
    try {
      const r2 = await env2.start();
      const s2 = await seed(r2.app);
      const sock = connect(`http://127.0.0.1:${r2.port}${SOCKET_NAMESPACE}`, {
        path: SOCKET_PATH,
        auth: { token: s2.owner.token, project: s2.projectId, platform: 'dev' },
        transports: ['websocket'],
        reconnection: false,
      });
      sockets.push(sock);
      await connected(sock);
      for (let i = 0; i < 5; i++) expect((await ask(sock, 'join', packPayload({}))).error).toBe(0);
      for (let i = 0; i < 3; i++) expect((await ask(sock, 'join', packPayload({}))).error).toBe(1005);
      // Unknown events count too, and the fourth refusal ends the connection.
      const gone = disconnected(sock);
      expect((await ask(sock, 'whatever', packPayload({}))).error).toBe(1005);
      expect(await gone).toBe('io server disconnect');
      // Another socket of the same user has its own counters.
      const other = connect(`http://127.0.0.1:${r2.port}${SOCKET_NAMESPACE}`, {
        path: SOCKET_PATH,
        auth: { token: s2.owner.token, project: s2.projectId, platform: 'dev' },
        transports: ['websocket'],
        reconnection: false,
      });
      sockets.push(other);
      await connected(other);
      expect((await ask(other, 'join', packPayload({}))).error).toBe(0);
    } finally {
      await env2.cleanup();
    }
  });
});
