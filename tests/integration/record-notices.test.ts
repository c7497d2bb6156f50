/**
 * Record-change notices (realtime/record-notices.ts): every committed write to a table tells the
 * table's project room on the socket channel, whoever made it (here a builder's API saves, a bulk
 * save and a removal), with the table's id and code only; a burst of writes is a few notices, not one
 * each; another project's room hears nothing.
 */
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTICE_MS } from '../../src/server/realtime/record-notices.ts';
import {
  packPayload,
  RECORDS_ACTION,
  SOCKET_NAMESPACE,
  SOCKET_PATH,
  unpackPayload,
} from '../../src/shared/realtime.ts';
import { call } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import {
  createRealtimeEnv,
  type RealtimeEnv,
  type Running,
  type Seed,
  seed,
  until,
} from '../helpers/realtime.ts';

const dialects = await testDialects();

interface Action {
  from: unknown;
  page: string | null;
  type: string;
  data: { entity: string; code: string };
}

describe.each(dialects)('record-change notices on %s', (dialect) => {
  let env: RealtimeEnv;
  let r: Running;
  let s: Seed;
  let other: string;
  let entity: string;
  const sockets: Socket[] = [];

  const open = async (token: string, project: string) => {
    const sock = connect(`http://127.0.0.1:${r.port}${SOCKET_NAMESPACE}`, {
      path: SOCKET_PATH,
      auth: { token, project, platform: 'app' },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(sock);
    const heard: Action[] = [];
    sock.on('action', (p: Uint8Array) => heard.push(unpackPayload<Action>(p)));
    const joined = unpackPayload<{ error: number }>(
      await sock.timeout(3000).emitWithAck('join', packPayload({})),
    );
    expect(joined.error).toBe(0);
    return heard;
  };
  const api = (url: string, body: unknown, token = s.owner.token) =>
    call<Record<string, unknown>>(r.app, 'POST', url, { token, body });

  beforeAll(async () => {
    env = await createRealtimeEnv(dialect);
    r = await env.start();
    s = await seed(r.app);
    const made = await api(`/api/admin/project/${s.projectId}/entity/create`, {
      name: 'Tasks',
      code: 'tasks',
    });
    expect(made.error, made.raw).toBe(0);
    entity = made.data._id as string;
    const f = await api(`/api/admin/project/${s.projectId}/tasks/field/create`, {
      name: 'Title',
      field: 'title',
      type: 'string',
    });
    expect(f.error, f.raw).toBe(0);
    const elsewhere = await api('/api/common/project/create', { name: 'Elsewhere' }, s.outsider.token);
    expect(elsewhere.error, elsewhere.raw).toBe(0);
    other = elsewhere.data._id as string;
  });
  afterAll(async () => {
    for (const sock of sockets) sock.close();
    await env?.cleanup();
  });

  it("tells the table's project room after a builder's save, a bulk save and a removal; not another project", async () => {
    const member = await open(s.reader.token, s.projectId);
    const outsider = await open(s.outsider.token, other);
    const D = `/api/admin/data/${s.projectId}/tasks`;

    const saved = await api(`${D}/save`, { title: 'one' });
    expect(saved.error, saved.raw).toBe(0);
    await until(() => member.length === 1, 5000, 'the notice of a save');
    expect(member[0]).toEqual({
      from: null,
      page: null,
      type: RECORDS_ACTION,
      data: { entity, code: 'tasks' },
    });

    // A burst: twenty saves and a bulk save of ten within the window are a few notices, the last after them.
    await new Promise((done) => setTimeout(done, NOTICE_MS + 50));
    member.length = 0;
    for (let i = 0; i < 20; i++) expect((await api(`${D}/save`, { title: `t${i}` })).error).toBe(0);
    const bulk = await api(
      `${D}/save`,
      Array.from({ length: 10 }, (_, i) => ({ title: `b${i}` })),
    );
    expect(bulk.error, bulk.raw).toBe(0);
    await until(() => member.length >= 1, 5000, 'the first notice of a burst');
    await new Promise((done) => setTimeout(done, NOTICE_MS * 2 + 100));
    expect(member.length).toBeGreaterThanOrEqual(1);
    expect(member.length).toBeLessThan(10);

    // A removal is a write too.
    member.length = 0;
    const id = saved.data._id as string;
    const removed = await api(`${D}/${id}/remove`, {});
    expect(removed.error, removed.raw).toBe(0);
    await until(() => member.length === 1, 5000, 'the notice of a removal');
    expect(member[0]!.data).toEqual({ entity, code: 'tasks' });

    expect(outsider).toEqual([]);
  });
});
