import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { pageFromDoc, patchProps } from '../../src/shared/page-ydoc.ts';
import { CLOSE, READ_ONLY_REASON } from '../../src/shared/realtime.ts';
import { getWidget } from '../../widgets/index.ts';
import { emptyPage, instanceOf } from '../fixtures/pages.ts';
import { seedRole } from '../helpers/access.ts';
import { call } from '../helpers/app.ts';
import { testDialects } from '../helpers/db.ts';
import {
  addPage,
  closeCode,
  createRealtimeEnv,
  deniedReasons,
  grantPage,
  type RealtimeEnv,
  type Running,
  type Seed,
  seed,
  synced,
  until,
  yClient,
} from '../helpers/realtime.ts';

const dialects = await testDialects();

async function rows(r: Running, docId: string) {
  return r.app.database.db
    .selectFrom('page_updates')
    .select(['seq', 'snapshot', 'data'])
    .where('doc_id', '=', docId)
    .orderBy('seq')
    .execute();
}

describe.each(dialects)('co-editing endpoint on %s', (dialect) => {
  let env: RealtimeEnv;
  let r: Running;
  let s: Seed;
  const clients: ReturnType<typeof yClient>[] = [];
  const client = (token: string, page = s.pageId, target = r, project = s.projectId) => {
    const c = yClient(target.url, project, page, token);
    clients.push(c);
    return c;
  };
  const closeClients = () => {
    for (const c of clients.splice(0)) {
      c.provider.destroy();
      c.doc.destroy();
    }
  };

  beforeAll(async () => {
    env = await createRealtimeEnv(dialect);
    r = await env.start({ realtime: { idleMs: 300, flushMs: 20, compactEvery: 10 } });
    s = await seed(r.app);
  });
  afterAll(async () => {
    closeClients();
    await env?.cleanup();
  });

  it('two writers converge and awareness is relayed', async () => {
    const a = client(s.owner.token);
    const b = client(s.admin.token);
    await Promise.all([synced(a.provider), synced(b.provider)]);
    a.doc.getMap('page').set('title', 'Hello');
    b.doc.getArray('items').push(['button']);
    await until(
      () => b.doc.getMap('page').get('title') === 'Hello' && a.doc.getArray('items').length === 1,
      5000,
      'convergence',
    );
    a.provider.awareness.setLocalStateField('user', { name: 'owner' });
    await until(
      () => [...b.provider.awareness.getStates().values()].some((st) => st.user?.name === 'owner'),
      5000,
      'awareness',
    );
    closeClients();
  });

  it('on an expired project builders only read: told so, they get edits, theirs are neither applied nor stored', async () => {
    const t = await seed(r.app);
    const page = await addPage(r.app, t.projectId);
    await r.app.database.db
      .updateTable('projects')
      .set({ expired_at: Date.now() - 1000 })
      .where('id', '=', t.projectId)
      .execute();
    const a = client(t.owner.token, page, r, t.projectId);
    const rd = client(t.admin.token, page, r, t.projectId);
    const toldOwner = deniedReasons(a.provider);
    const told = deniedReasons(rd.provider);
    await Promise.all([synced(a.provider), synced(rd.provider)]);
    // Each is told it may only read.
    await until(() => told.length > 0 && toldOwner.length > 0, 5000, 'read-only notice');
    expect(told).toEqual([READ_ONLY_REASON]);
    expect(toldOwner).toEqual([READ_ONLY_REASON]);
    // A change made by the server (a restored version) reaches them.
    const restored = emptyPage();
    restored.title = 'restored while expired';
    await r.app.realtime.yjs.replace(page, restored);
    await until(() => pageFromDoc(rd.doc).title === 'restored while expired', 5000, 'reader sees the change');
    const dropped = r.app.realtime.yjs.stats.droppedReadOnly;
    rd.doc.getMap('page').set('hack', 'from reader');
    rd.provider.awareness.setLocalStateField('user', { name: 'reader' });
    // Awareness still flows from readers.
    await until(
      () => [...a.provider.awareness.getStates().values()].some((st) => st.user?.name === 'reader'),
      5000,
      'reader awareness',
    );
    await until(() => r.app.realtime.yjs.stats.droppedReadOnly > dropped, 5000, 'drop');
    await r.app.realtime.yjs.store.flush();
    expect(a.doc.getMap('page').get('hack')).toBeUndefined();
    expect(r.app.realtime.yjs.rooms.get(page)!.doc.getMap('page').get('hack')).toBeUndefined();
    const stored = new Y.Doc();
    for (const row of await rows(r, page)) Y.applyUpdate(stored, row.data);
    expect(pageFromDoc(stored).title).toBe('restored while expired');
    expect(stored.getMap('page').has('hack')).toBe(false);
    closeClients();
  });

  it('refuses a member without the builder right (4403), granted the page or not, like preview', async () => {
    const t = await seed(r.app);
    const page = await addPage(r.app, t.projectId);
    const url = `${r.url}/yjs/${t.projectId}/${page}?token=${t.reader.token}`;
    expect(await closeCode(url)).toBe(CLOSE.FORBIDDEN);
    // The preview call refuses the same member the same way.
    const preview = await call(r.app, 'GET', `/api/app/page/${t.projectId}/${page}?preview=1`, {
      token: t.reader.token,
    });
    expect(preview.error).toBe(1102);
    // A role that grants the page lets the member see it published, never its draft.
    await grantPage(r.app, t.projectId, t.reader.id, page);
    expect(await closeCode(url)).toBe(CLOSE.FORBIDDEN);
    // Nothing of the document reached them: no room was even loaded for them.
    expect(r.app.realtime.yjs.rooms.has(page)).toBe(false);
    // A builder of the same project gets in.
    expect(await closeCode(`${r.url}/yjs/${t.projectId}/${page}?token=${t.admin.token}`, 300)).toBe(0);
  });

  it('refuses a bad token, a non-member and an unknown page with their close codes', async () => {
    const base = `${r.url}/yjs/${s.projectId}`;
    expect(await closeCode(`${base}/${s.pageId}?token=nope-not-a-real-token`)).toBe(CLOSE.TOKEN);
    expect(await closeCode(`${base}/${s.pageId}`)).toBe(CLOSE.TOKEN);
    expect(await closeCode(`${base}/${s.pageId}?token=${s.outsider.token}`)).toBe(CLOSE.FORBIDDEN);
    expect(await closeCode(`${base}/0123456789abcdef01234567?token=${s.owner.token}`)).toBe(CLOSE.NOT_FOUND);
    expect(await closeCode(`${base}/not-an-id?token=${s.owner.token}`)).toBe(CLOSE.NOT_FOUND);
    // A page of another project is unknown here.
    const other = await seed(r.app);
    expect(await closeCode(`${base}/${other.pageId}?token=${s.owner.token}`)).toBe(CLOSE.NOT_FOUND);
    // The valid request stays open.
    expect(await closeCode(`${base}/${s.pageId}?token=${s.owner.token}`, 300)).toBe(0);
  });

  it('compacts every N updates, unloads idle documents and reloads them intact', async () => {
    const page = await addPage(r.app, s.projectId);
    const w = client(s.owner.token, page);
    await synced(w.provider);
    const list = w.doc.getArray<number>('items');
    for (let i = 0; i < 25; i++) {
      list.push([i]);
      await new Promise((res) => setTimeout(res, 2));
    }
    const room = r.app.realtime.yjs.rooms.get(page)!;
    await until(() => room.doc.getArray('items').length === 25, 5000, 'server has all');
    await r.app.realtime.yjs.store.flush();
    await until(() => r.app.realtime.yjs.store.written >= 25, 5000, 'written');
    // compactEvery is 10: far fewer rows than updates are left.
    expect((await rows(r, page)).length).toBeLessThan(25);
    closeClients();
    await until(() => !r.app.realtime.yjs.rooms.has(page), 5000, 'unload');
    const left = await rows(r, page);
    expect(left.length).toBe(1);
    expect(left[0]!.snapshot).toBe(1);
    const again = client(s.admin.token, page);
    await synced(again.provider);
    expect(again.doc.getArray('items').toArray()).toEqual([...Array(25).keys()]);
    closeClients();
  });

  it('a corrupted stored update makes the load fail without overwriting anything', async () => {
    const page = await addPage(r.app, s.projectId);
    const w = client(s.owner.token, page);
    await synced(w.provider);
    w.doc.getMap('page').set('title', 'precious');
    await until(() => r.app.realtime.yjs.rooms.get(page)?.doc.getMap('page').get('title') === 'precious');
    closeClients();
    await until(() => !r.app.realtime.yjs.rooms.has(page), 5000, 'unload');
    await r.app.database.db
      .insertInto('page_updates')
      .values({ doc_id: page, snapshot: 0, data: Buffer.from([0xff, 0xff, 0xff]), created_at: Date.now() })
      .execute();
    const before = await rows(r, page);
    const url = `${r.url}/yjs/${s.projectId}/${page}?token=${s.owner.token}`;
    expect(await closeCode(url)).toBe(CLOSE.LOAD_FAILED);
    expect(await closeCode(url)).toBe(CLOSE.LOAD_FAILED);
    expect(r.app.realtime.yjs.rooms.has(page)).toBe(false);
    await r.app.realtime.yjs.store.flush();
    const after = await rows(r, page);
    expect(after.map((x) => [x.seq, Buffer.from(x.data).toString('hex')])).toEqual(
      before.map((x) => [x.seq, Buffer.from(x.data).toString('hex')]),
    );
    // Compaction refuses too, and leaves the rows as they were.
    await expect(r.app.realtime.yjs.store.compact(page)).rejects.toThrow();
    expect((await rows(r, page)).length).toBe(before.length);
  });

  it('a demoted builder and a removed member are disconnected (4403)', async () => {
    const t = await seed(r.app);
    const page = await addPage(r.app, t.projectId);
    const w = client(t.owner.token, page, r, t.projectId);
    const a = client(t.admin.token, page, r, t.projectId);
    await Promise.all([synced(w.provider), synced(a.provider)]);
    a.doc.getMap('page').set('before', 1);
    await until(() => w.doc.getMap('page').get('before') === 1, 5000, 'admin writes while admin');
    // Demoted to a common role: drafts are no longer theirs to see.
    const closed = new Promise<number>((res) => a.provider.ws?.addEventListener('close', (e) => res(e.code)));
    a.provider.shouldConnect = false;
    const common = await seedRole(r.app, t.projectId, 'common');
    const demoted = await call(r.app, 'POST', `/api/admin/user/${t.projectId}/${t.admin.id}/update`, {
      token: t.owner.token,
      body: { role: common },
    });
    expect(demoted.error).toBe(0);
    expect(await closed).toBe(CLOSE.FORBIDDEN);
    const room = r.app.realtime.yjs.rooms.get(page)!;
    await until(() => [...room.conns].every((c) => c.userId !== t.admin.id), 5000, 'gone from the room');
    expect([...room.conns].map((c) => c.userId)).toEqual([t.owner.id]);
    // Removal ends a connection too.
    const u = await seed(r.app);
    const other = await addPage(r.app, u.projectId);
    const b = client(u.admin.token, other, r, u.projectId);
    await synced(b.provider);
    const closedB = new Promise<number>((res) =>
      b.provider.ws?.addEventListener('close', (e) => res(e.code)),
    );
    b.provider.shouldConnect = false;
    const removed = await call(r.app, 'GET', `/api/admin/user/${u.projectId}/${u.admin.id}/remove`, {
      token: u.owner.token,
    });
    expect(removed.error).toBe(0);
    expect(await closedB).toBe(CLOSE.FORBIDDEN);
    closeClients();
  });

  it('an expired project is read-only for its builders too', async () => {
    const t = await seed(r.app);
    const page = await addPage(r.app, t.projectId);
    const w = client(t.owner.token, page, r, t.projectId);
    await synced(w.provider);
    w.doc.getMap('page').set('live', 1);
    const room = r.app.realtime.yjs.rooms.get(page)!;
    await until(() => room.doc.getMap('page').get('live') === 1, 5000, 'owner writes');
    await r.app.database.db
      .updateTable('projects')
      .set({ expired_at: Date.now() - 1000 })
      .where('id', '=', t.projectId)
      .execute();
    // Expiry needs no event: the periodic check (forced here) applies it to open connections.
    await r.app.realtime.yjs.recheck();
    expect([...room.conns].every((c) => !c.writable)).toBe(true);
    w.doc.getMap('page').set('late', 1);
    const dropped = r.app.realtime.yjs.stats.droppedReadOnly;
    await until(() => r.app.realtime.yjs.stats.droppedReadOnly > dropped, 5000, 'drop after expiry');
    expect(room.doc.getMap('page').get('late')).toBeUndefined();
    // A new connection of the owner is read-only from the start.
    const again = client(t.owner.token, page, r, t.projectId);
    await synced(again.provider);
    expect([...room.conns].filter((c) => c.userId === t.owner.id).every((c) => !c.writable)).toBe(true);
    closeClients();
  });

  it('removing a page closes its live document and nothing of it is written afterwards', async () => {
    const created = await call<{ _id: string }>(r.app, 'POST', `/api/admin/page/${s.projectId}/create`, {
      token: s.owner.token,
      body: { name: 'doomed' },
    });
    expect(created.error).toBe(0);
    const page = created.data._id;
    const w = client(s.owner.token, page);
    await synced(w.provider);
    const closed = new Promise<number>((res) => w.provider.ws?.addEventListener('close', (e) => res(e.code)));
    w.provider.shouldConnect = false;
    for (let i = 0; i < 20; i++) w.doc.getMap('page').set(`k${i}`, i);
    const removed = await call(r.app, 'GET', `/api/admin/page/${s.projectId}/${page}/remove`, {
      token: s.owner.token,
    });
    expect(removed.error).toBe(0);
    expect(await closed).toBe(CLOSE.NOT_FOUND);
    expect(r.app.realtime.yjs.rooms.has(page)).toBe(false);
    await new Promise((res) => setTimeout(res, 300));
    await r.app.realtime.yjs.store.flush();
    expect(await rows(r, page)).toEqual([]);
    closeClients();
  });

  it('a document starts from the saved draft, and a restored version reaches open editors', async () => {
    const text = getWidget('text')!;
    const v1 = emptyPage();
    v1.widgets = [instanceOf(text, 'hello')];
    v1.widgets[0]!.props.text = 'version one';
    const created = await call<{ _id: string }>(r.app, 'POST', `/api/admin/page/${s.projectId}/create`, {
      token: s.owner.token,
      body: { name: 'seeded', document: v1 },
    });
    expect(created.error).toBe(0);
    const page = created.data._id;
    const base = `/api/admin/page/${s.projectId}/${page}`;
    expect(
      (await call(r.app, 'POST', `${base}/publish`, { token: s.owner.token, body: { note: 'v1' } })).error,
    ).toBe(0);
    const w = client(s.owner.token, page);
    const rd = client(s.admin.token, page);
    await Promise.all([synced(w.provider), synced(rd.provider)]);
    expect(pageFromDoc(w.doc).widgets.map((x) => x.props.text)).toEqual(['version one']);
    expect(pageFromDoc(rd.doc).title).toBe(v1.title);
    // An edit in the co-editing document, then the builder restores version 1.
    patchProps(w.doc, 'hello', { text: 'edited live' });
    await until(() => pageFromDoc(rd.doc).widgets[0]?.props.text === 'edited live', 5000, 'live edit');
    expect(
      (await call(r.app, 'POST', `${base}/restore`, { token: s.owner.token, body: { version: 1 } })).error,
    ).toBe(0);
    await until(
      () => pageFromDoc(rd.doc).widgets[0]?.props.text === 'version one',
      5000,
      'restore reaches the other editor',
    );
    await until(
      () => pageFromDoc(w.doc).widgets[0]?.props.text === 'version one',
      5000,
      'restore reaches writer',
    );
    closeClients();
  });

  it('closeUserConnections closes co-editing sockets within a second', async () => {
    const page = await addPage(r.app, s.projectId);
    const w = client(s.admin.token, page);
    await synced(w.provider);
    const ws = w.provider.ws as unknown as {
      readyState: number;
      once(ev: string, f: (code: number) => void): void;
    };
    const closed = new Promise<number>((res) => ws.once('close', res));
    const t0 = Date.now();
    w.provider.shouldConnect = false;
    await r.app.realtime.closeUserConnections(s.admin.id);
    const code = await closed;
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(code).toBe(CLOSE.REVOKED);
    closeClients();
  });

  it('acknowledged edits survive a restart on the same database', async () => {
    const page = await addPage(r.app, s.projectId);
    const w = client(s.owner.token, page);
    const w2 = client(s.admin.token, page);
    await Promise.all([synced(w.provider), synced(w2.provider)]);
    for (let i = 0; i < 15; i++) w.doc.getMap('m').set(`k${i}`, i);
    w2.doc.getText('t').insert(0, 'restart-safe');
    await until(() => w.doc.getText('t').toString() === 'restart-safe' && w2.doc.getMap('m').size === 15);
    closeClients();
    await r.app.close();
    r = await env.start({ realtime: { idleMs: 300, flushMs: 20, compactEvery: 10 } });
    const back = client(s.admin.token, page);
    await synced(back.provider);
    expect(back.doc.getMap('m').size).toBe(15);
    expect(back.doc.getText('t').toString()).toBe('restart-safe');
    closeClients();
  });
});
