/**
 * The designer's co-editing session (src/client/designer/collab) against the real endpoint: presence
 * and selections, server-decided read-only, and the statuses of connections that end for good.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { CollabSession, selectionsByWidget } from '../../src/client/designer/collab/session.ts';
import { pageFromDoc, patchProps } from '../../src/shared/page-ydoc.ts';
import { getWidget } from '../../widgets/index.ts';
import { emptyPage, instanceOf } from '../fixtures/pages.ts';
import { call } from '../helpers/app.ts';
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

describe.each(dialects)('designer co-editing session on %s', (dialect) => {
  let env: RealtimeEnv;
  let r: Running;
  let s: Seed;
  const sessions: CollabSession[] = [];

  const open = (who: { id: string; token: string }, name: string, page: string, project = s.projectId) => {
    const session = new CollabSession(new Y.Doc(), {
      project,
      page,
      token: who.token,
      user: { id: who.id, name },
      origin: r.url,
      WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    });
    sessions.push(session);
    return session;
  };

  async function newPage(): Promise<string> {
    const doc = emptyPage();
    doc.widgets = [instanceOf(getWidget('text')!, 'title'), instanceOf(getWidget('button')!, 'go', 5)];
    const created = await call<{ _id: string }>(r.app, 'POST', `/api/admin/page/${s.projectId}/create`, {
      token: s.owner.token,
      body: { name: 'co-edited', document: doc },
    });
    expect(created.error).toBe(0);
    return created.data._id;
  }

  beforeAll(async () => {
    env = await createRealtimeEnv(dialect);
    r = await env.start({ realtime: { idleMs: 300, flushMs: 20 } });
    s = await seed(r.app);
  });
  afterAll(async () => {
    for (const x of sessions) x.destroy();
    await env?.cleanup();
  });

  it('syncs the saved page, shows who is here and what each one selected', async () => {
    const page = await newPage();
    const a = open(s.owner, 'Ann', page);
    const b = open(s.admin, 'Bob', page);
    await Promise.all([a.whenSynced(), b.whenSynced()]);
    expect(a.snapshot().status).toBe('connected');
    expect(pageFromDoc(a.doc).widgets.map((w) => w.id)).toEqual(['title', 'go']);
    await until(() => a.snapshot().peers.length === 2 && b.snapshot().peers.length === 2, 5000, 'peers');
    expect(a.snapshot().peers[0]).toMatchObject({ self: true, name: 'Ann', userId: s.owner.id });
    expect(a.snapshot().peers[1]).toMatchObject({ self: false, name: 'Bob' });
    b.setSelection(['go']);
    await until(
      () => selectionsByWidget(a.snapshot().peers).get('go')?.[0]?.name === 'Bob',
      5000,
      'selection',
    );
    expect(selectionsByWidget(b.snapshot().peers).has('go')).toBe(false);
    patchProps(a.doc, 'title', { text: 'from Ann' });
    await until(() => pageFromDoc(b.doc).widgets[0]?.props.text === 'from Ann', 5000, 'edit');
    expect(a.snapshot().readOnly).toBe(false);
    expect(b.snapshot().readOnly).toBe(false);
    a.destroy();
    await until(() => b.snapshot().peers.length === 1, 5000, 'peer left');
  });

  it('a member without the builder right and an outsider are denied; a removed page and a bad token end for good', async () => {
    const page = await newPage();
    const member = open(s.reader, 'Rita', page);
    await until(() => member.snapshot().status === 'denied', 5000, 'member denied');
    expect(member.snapshot().synced).toBe(false);
    const outsider = open(s.outsider, 'Otto', page);
    await until(() => outsider.snapshot().status === 'denied', 5000, 'denied');
    const editor = open(s.admin, 'Bob', page);
    await editor.whenSynced();
    expect(editor.snapshot().readOnly).toBe(false);
    const removed = await call(r.app, 'GET', `/api/admin/page/${s.projectId}/${page}/remove`, {
      token: s.owner.token,
    });
    expect(removed.error).toBe(0);
    await until(() => editor.snapshot().status === 'removed', 5000, 'removed');
    const bad = open({ id: 'x', token: 'not-a-token-at-all' }, 'X', page);
    await until(() => bad.snapshot().status === 'signedOut', 5000, 'signed out');
  });

  it('a builder of an expired project is told it may only read', async () => {
    const t = await seed(r.app);
    const page = await addPage(r.app, t.projectId);
    await r.app.database.db
      .updateTable('projects')
      .set({ expired_at: Date.now() - 1000 })
      .where('id', '=', t.projectId)
      .execute();
    const reader = open(t.owner, 'Ann', page, t.projectId);
    await reader.whenSynced();
    await until(() => reader.snapshot().readOnly, 5000, 'read-only');
    expect(reader.snapshot().status).toBe('connected');
  });
});
