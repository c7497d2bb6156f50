import * as encoding from 'lib0/encoding';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { createProject } from '../../src/server/project/service.ts';
import { CLOSE, YJS_MAX_MESSAGE } from '../../src/shared/realtime.ts';
import { call } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import {
  addPage,
  createRealtimeEnv,
  type RealtimeEnv,
  type Running,
  type Seed,
  seed,
  synced,
  until,
  yClient,
} from '../helpers/realtime.ts';

const dialects = await testDialects();

/** An awareness message (y-websocket type 1) setting `state` for `clientId` at `clock`. */
function awarenessMessage(clientId: number, clock: number, state: unknown): Uint8Array {
  const update = encoding.createEncoder();
  encoding.writeVarUint(update, 1);
  encoding.writeVarUint(update, clientId);
  encoding.writeVarUint(update, clock);
  encoding.writeVarString(update, JSON.stringify(state));
  const enc = encoding.createEncoder();
  encoding.writeVarUint(enc, 1);
  encoding.writeVarUint8Array(enc, encoding.toUint8Array(update));
  return encoding.toUint8Array(enc);
}

/** A sync "update" message carrying one Y update that sets `key` to a string of `bytes` characters. */
function bigUpdate(key: string, bytes: number): Uint8Array {
  const doc = new Y.Doc();
  doc.getMap('page').set(key, 'x'.repeat(bytes));
  const enc = encoding.createEncoder();
  encoding.writeVarUint(enc, 0);
  syncProtocol.writeUpdate(enc, Y.encodeStateAsUpdate(doc));
  doc.destroy();
  return encoding.toUint8Array(enc);
}

/** A raw socket on a document, resolved once the server sent its first message (the room holds it). */
function rawSocket(url: string, project: string, page: string, token: string) {
  const ws = new WebSocket(`${url}/yjs/${project}/${page}?token=${token}`);
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('error', () => {});
  const ready = new Promise<void>((resolve) => ws.once('message', () => resolve()));
  return { ws, closed, ready };
}

describe.each(dialects)('co-editing limits on %s', (dialect) => {
  let env: RealtimeEnv;
  let r: Running;
  let s: Seed;
  const clients: ReturnType<typeof yClient>[] = [];
  const client = (token: string, page: string, project = s.projectId) => {
    const c = yClient(r.url, project, page, token);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    env = await createRealtimeEnv(dialect);
    r = await env.start({ realtime: { idleMs: 300, flushMs: 20, compactEvery: 10 } });
    s = await seed(r.app);
  });
  afterAll(async () => {
    for (const c of clients.splice(0)) {
      c.provider.destroy();
      c.doc.destroy();
    }
    await env?.cleanup();
  });

  it("a connection cannot set or clear another connection's presence", async () => {
    const page = await addPage(r.app, s.projectId);
    const a = client(s.owner.token, page);
    // Another builder (members without the builder right are refused the room altogether).
    const b = client(s.admin.token, page);
    await Promise.all([synced(a.provider), synced(b.provider)]);
    a.provider.awareness.setLocalStateField('user', { name: 'owner' });
    const room = r.app.realtime.yjs.rooms.get(page)!;
    const victim = a.doc.clientID;
    await until(() => room.awareness.getStates().get(victim)?.user?.name === 'owner', 5000, 'owner presence');

    // The admin sends the owner's client id with a newer clock: a new name, then a removal.
    const clock = room.awareness.meta.get(victim)!.clock;
    b.provider.ws!.send(awarenessMessage(victim, clock + 5, { user: { name: 'spoofed' } }));
    b.provider.ws!.send(awarenessMessage(victim, clock + 6, null));
    // Its own presence, sent after on the same socket, shows the spoof was read and dropped.
    b.provider.awareness.setLocalStateField('user', { name: 'reader' });
    await until(
      () => room.awareness.getStates().get(b.doc.clientID)?.user?.name === 'reader',
      5000,
      'reader presence',
    );
    expect(room.awareness.getStates().get(victim)?.user?.name).toBe('owner');
    const seenByOwner = () =>
      [...a.provider.awareness.getStates().values()].map((st) => st.user?.name as string | undefined);
    await until(() => seenByOwner().includes('reader'), 5000, 'owner sees the reader');
    expect(seenByOwner()).not.toContain('spoofed');
    // Each connection still updates its own presence.
    a.provider.awareness.setLocalStateField('user', { name: 'owner 2' });
    await until(() => room.awareness.getStates().get(victim)?.user?.name === 'owner 2', 5000, 'owner update');
  });

  it('presence of an id whose connection left may be taken up again by a reconnect', async () => {
    const page = await addPage(r.app, s.projectId);
    const a = client(s.owner.token, page);
    await synced(a.provider);
    a.provider.awareness.setLocalStateField('user', { name: 'first' });
    const room = r.app.realtime.yjs.rooms.get(page)!;
    await until(() => room.awareness.getStates().get(a.doc.clientID)?.user?.name === 'first', 5000, 'first');
    // Same doc (same client id), new socket: its state counts as its own again and goes when it closes.
    a.provider.disconnect();
    await until(() => !room.awareness.getStates().has(a.doc.clientID), 5000, 'removed on close');
    a.provider.connect();
    await synced(a.provider);
    a.provider.awareness.setLocalStateField('user', { name: 'again' });
    await until(() => room.awareness.getStates().get(a.doc.clientID)?.user?.name === 'again', 5000, 'again');
    a.provider.disconnect();
    await until(() => !room.awareness.getStates().has(a.doc.clientID), 5000, 'removed on second close');
  });

  it('refuses co-editing messages past the cap with a coded close; nothing is applied or stored', async () => {
    const page = await addPage(r.app, s.projectId);
    const stored = async () =>
      (
        await r.app.database.db.selectFrom('page_updates').select('data').where('doc_id', '=', page).execute()
      ).reduce((n, row) => n + (row.data as Uint8Array).length, 0);
    // Past the message cap, within the frame limit: our close code.
    const mid = rawSocket(r.url, s.projectId, page, s.owner.token);
    await mid.ready;
    const five = bigUpdate('five', YJS_MAX_MESSAGE + 1024 * 1024);
    mid.ws.send(five);
    expect(await mid.closed).toBe(CLOSE.TOO_LARGE);
    // 12 MiB: past the frame limit too (ws closes with 1009 before reading it whole).
    const big = rawSocket(r.url, s.projectId, page, s.owner.token);
    await big.ready;
    big.ws.send(bigUpdate('twelve', 12 * 1024 * 1024));
    expect(await big.closed).toBe(1009);
    // A writer still edits, and neither big value is in the document or the database.
    const w = client(s.owner.token, page);
    await synced(w.provider);
    w.doc.getMap('page').set('small', 1);
    const room = r.app.realtime.yjs.rooms.get(page)!;
    await until(() => room.doc.getMap('page').get('small') === 1, 5000, 'small edit');
    await r.app.realtime.yjs.store.flush();
    expect(room.doc.getMap('page').has('five')).toBe(false);
    expect(room.doc.getMap('page').has('twelve')).toBe(false);
    expect(await stored()).toBeLessThan(1024 * 1024);
  });

  it("a removed member's co-editing socket closes with 4403; their other project's stays open", async () => {
    const other = await createProject(r.app.database.db, s.owner.id, 'Other');
    await r.app.database.db
      .insertInto('project_members')
      .values({
        project_id: other.id,
        user_id: s.admin.id,
        role_type: 'admin',
        role_id: null,
        status: 'active',
        created_at: Date.now(),
      })
      .execute();
    const here = await addPage(r.app, s.projectId);
    const there = await addPage(r.app, other.id);
    const a = rawSocket(r.url, s.projectId, here, s.admin.token);
    const b = rawSocket(r.url, other.id, there, s.admin.token);
    await Promise.all([a.ready, b.ready]);
    const removed = await call(r.app, 'GET', `/api/admin/user/${s.projectId}/${s.admin.id}/remove`, {
      token: s.owner.token,
    });
    expect(removed.error).toBe(0);
    expect(await a.closed).toBe(CLOSE.FORBIDDEN);
    await r.app.realtime.yjs.recheck();
    expect(b.ws.readyState).toBe(WebSocket.OPEN);
    b.ws.close();
  });
});
