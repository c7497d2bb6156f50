import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLOSE,
  packPayload,
  SOCKET_NAMESPACE,
  SOCKET_PATH,
  unpackPayload,
} from '../../src/shared/realtime.ts';
import { testDialects } from '../helpers/db.ts';
import {
  addPage,
  createRealtimeEnv,
  grantPage,
  type RealtimeEnv,
  type Running,
  type Seed,
  seed,
  until,
} from '../helpers/realtime.ts';

const dialects = await testDialects();

type Answer<T = Record<string, unknown>> = { error: number; data: T; msg?: string };

describe.each(dialects)('socket channel on %s', (dialect) => {
  let env: RealtimeEnv;
  let r: Running;
  let s: Seed;
  const sockets: Socket[] = [];
  const open = (auth: Record<string, unknown>) => {
    const sock = connect(`http://127.0.0.1:${r.port}${SOCKET_NAMESPACE}`, {
      path: SOCKET_PATH,
      auth,
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(sock);
    return sock;
  };
  const ask = async <T = Record<string, unknown>>(sock: Socket, event: string, body: unknown) =>
    unpackPayload<Answer<T>>(await sock.timeout(3000).emitWithAck(event, packPayload(body)));
  const next = <T = Record<string, unknown>>(sock: Socket, event: string) =>
    new Promise<T>((resolve) => sock.once(event, (p: Uint8Array) => resolve(unpackPayload<T>(p))));
  const connected = (sock: Socket) =>
    new Promise<void>((resolve, reject) => {
      if (sock.connected) return resolve();
      sock.once('connect', () => resolve());
      sock.once('connect_error', reject);
    });
  const refusal = (sock: Socket) =>
    new Promise<number>((resolve) =>
      sock.once('connect_error', (err: Error & { data?: { code: number } }) => resolve(err.data?.code ?? -1)),
    );

  beforeAll(async () => {
    env = await createRealtimeEnv(dialect);
    r = await env.start();
    s = await seed(r.app);
  });
  afterAll(async () => {
    for (const sock of sockets) sock.close();
    await env?.cleanup();
  });

  it('refuses a bad token, a non-member and a missing project or platform', async () => {
    expect(await refusal(open({ token: 'bad-token-bad-token', project: s.projectId, platform: 'dev' }))).toBe(
      CLOSE.TOKEN,
    );
    expect(await refusal(open({ token: s.outsider.token, project: s.projectId, platform: 'dev' }))).toBe(
      CLOSE.FORBIDDEN,
    );
    expect(await refusal(open({ token: s.owner.token, project: s.projectId }))).toBe(CLOSE.NOT_FOUND);
  });

  it('join, enter, action and notify round trip with gzip payloads; emits before connect are flushed', async () => {
    const a = open({ token: s.owner.token, project: s.projectId, platform: 'dev' });
    // Emitted before the connection is up: socket.io buffers it and sends it once connected.
    const earlyJoin = ask(a, 'join', {});
    const b = open({ token: s.reader.token, project: s.projectId, platform: 'app' });
    await Promise.all([connected(a), connected(b)]);
    const joinedA = await earlyJoin;
    expect(joinedA.error).toBe(0);
    expect(joinedA.data.project).toBe(s.projectId);
    const seenJoin = next<{ user: { id: string } }>(a, 'join');
    expect((await ask(b, 'join', {})).error).toBe(0);
    expect((await seenJoin).user.id).toBe(s.reader.id);

    // Project-wide action reaches the other member, not the sender.
    let echoed = false;
    a.on('action', () => {
      echoed = true;
    });
    const got = next<{ from: { id: string }; type: string; data: unknown; page: null }>(b, 'action');
    expect((await ask(a, 'action', { type: 'card.move', data: { id: 1, to: 'done' } })).error).toBe(0);
    expect(await got).toEqual({
      from: { id: s.owner.id, name: 'owner' },
      page: null,
      type: 'card.move',
      data: { id: 1, to: 'done' },
    });
    a.off('action');
    expect(echoed).toBe(false);

    // Page rooms: enter announces, lists who is there; a page action stays in the page.
    const page = await addPage(r.app, s.projectId);
    await ask(a, 'enter', { page });
    // Only those who may see the page join its room: the reader's role must grant it.
    expect((await ask(b, 'enter', { page })).error).toBe(1102);
    await grantPage(r.app, s.projectId, s.reader.id, page);
    const entered = next<{ user: { id: string }; page: string }>(a, 'enter');
    const enterB = await ask<{ users: { id: string }[] }>(b, 'enter', { page });
    expect(enterB.data.users.map((u) => u.id).sort()).toEqual([s.owner.id, s.reader.id].sort());
    expect((await entered).page).toBe(page);
    const pageAction = next<{ page: string; type: string }>(a, 'action');
    await ask(b, 'action', { page, type: 'select', data: ['w1'] });
    expect(await pageAction).toMatchObject({ page, type: 'select' });
    expect((await ask(a, 'enter', { page: '0123456789abcdef01234567' })).error).toBe(1202);
    const left = next<{ user: { id: string } }>(a, 'leave');
    await ask(b, 'leave', { page });
    expect((await left).user.id).toBe(s.reader.id);
    expect((await ask(b, 'action', { page, type: 'x' })).error).toBe(1102);

    // notify goes to one user's sockets.
    const note = next<{ from: { id: string }; data: unknown }>(b, 'notify');
    expect((await ask(a, 'notify', { user: s.reader.id, data: { text: 'hi' } })).error).toBe(0);
    expect(await note).toEqual({ from: { id: s.owner.id, name: 'owner' }, data: { text: 'hi' } });

    // Anything that is not gzip JSON is refused.
    const rawAnswer = unpackPayload<Answer>(await a.timeout(3000).emitWithAck('action', { type: 'plain' }));
    expect(rawAnswer.error).toBe(1000);
  });

  it('honours one heartbeat per 30 s window', async () => {
    const a = open({ token: s.admin.token, project: s.projectId, platform: 'dev' });
    await connected(a);
    const first = await ask<{ t?: number; throttled?: boolean }>(a, 'ping', {});
    expect(first.error).toBe(0);
    expect(first.data.throttled).toBeUndefined();
    const second = await ask<{ throttled?: boolean; next: number }>(a, 'ping', {});
    expect(second.data.throttled).toBe(true);
    expect(second.data.next).toBeGreaterThan(29_000);
  });

  it('closeUserConnections disconnects the user within a second, other users stay', async () => {
    const a1 = open({ token: s.admin.token, project: s.projectId, platform: 'dev' });
    const a2 = open({ token: s.admin.token, project: s.projectId, platform: 'app' });
    const other = open({ token: s.owner.token, project: s.projectId, platform: 'dev' });
    await Promise.all([connected(a1), connected(a2), connected(other)]);
    const t0 = Date.now();
    await r.app.realtime.closeUserConnections(s.admin.id);
    await until(() => !a1.connected && !a2.connected, 1000, 'disconnect');
    expect(Date.now() - t0).toBeLessThan(1000);
    await new Promise((res) => setTimeout(res, 100));
    expect(other.connected).toBe(true);
  });

  it("a kick through the member API closes that user's sockets within a second", async () => {
    const victim = open({ token: s.reader.token, project: s.projectId, platform: 'app' });
    await connected(victim);
    const t0 = Date.now();
    const res = await fetch(`http://127.0.0.1:${r.port}/api/admin/user/${s.projectId}/${s.reader.id}/kick`, {
      headers: { token: s.owner.token },
    });
    expect(((await res.json()) as { error: number }).error).toBe(0);
    await until(() => !victim.connected, 1000, 'disconnect after kick');
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
