/** The browser's socket channel client (src/client/realtime) against the real server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelError, SocketChannel } from '../../src/client/realtime/socket-channel.ts';
import { testDialects } from '../helpers/db.ts';
import {
  addPage,
  createRealtimeEnv,
  type RealtimeEnv,
  type Running,
  type Seed,
  seed,
  until,
} from '../helpers/realtime.ts';

const dialects = await testDialects();

describe.each(dialects)('socket channel client on %s', (dialect) => {
  let env: RealtimeEnv;
  let r: Running;
  let s: Seed;
  const channels: SocketChannel[] = [];
  const open = (token: string) => {
    const c = new SocketChannel({
      project: s.projectId,
      platform: 'dev',
      token,
      origin: `http://127.0.0.1:${r.port}`,
    });
    channels.push(c);
    return c;
  };

  beforeAll(async () => {
    env = await createRealtimeEnv(dialect);
    r = await env.start();
    s = await seed(r.app);
  });
  afterAll(async () => {
    for (const c of channels) c.close();
    await env?.cleanup();
  });

  it('calls made before the connection is up are sent in order once it is; actions reach the others', async () => {
    const page = await addPage(r.app, s.projectId);
    const a = open(s.owner.token);
    const b = open(s.admin.token);
    // Not connected yet: these wait in the send buffer and go out in order.
    expect(a.connected).toBe(false);
    const joined = a.call('join');
    const entered = a.call('enter', { page });
    await Promise.all([joined, entered]);
    await b.call('join');
    await b.call('enter', { page });
    const got: unknown[] = [];
    b.on<{ type: string }>('action', (p) => got.push(p.type));
    await a.call('action', { page, type: 'card.move', data: { id: 'c1', to: 'done' } });
    await until(() => got.length === 1, 5000, 'action delivered');
    expect(got).toEqual(['card.move']);
  });

  it('the heartbeat goes out at most once per 30 s; refusals reject with their code', async () => {
    const a = open(s.owner.token);
    await until(() => a.connected, 5000, 'connected');
    // The connect handler already sent one heartbeat; later ones are throttled to one per 30 s.
    const t0 = Date.now();
    expect(await a.ping(t0 + 60_000)).toBe(true);
    expect(await a.ping(t0 + 60_000 + 1000)).toBe(false);
    expect(await a.ping(t0 + 60_000 + 30_000)).toBe(true);
    // An action into a page this socket has not entered is refused with its code.
    const page = await addPage(r.app, s.projectId);
    const refused = a.call('action', { page, type: 'x' });
    await expect(refused).rejects.toBeInstanceOf(ChannelError);
    await expect(refused).rejects.toMatchObject({ code: 1102 });
  });
});
