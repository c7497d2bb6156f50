import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Kysely } from 'kysely';
import { type WebSocket, WebSocketServer } from 'ws';
import type { PageDocument } from '../../shared/page-document.ts';
import { CLOSE, YJS_MAX_FRAME, YJS_MAX_MESSAGE, YJS_PATH } from '../../shared/realtime.ts';
import { resolveToken } from '../account/service.ts';
import type { DB } from '../db/schema.ts';
import { load } from '../page/document.ts';
import { findProject, isLimited, membership } from '../project/service.ts';
import type { FanKind, RedisFanout } from './fanout.ts';
import type { DocStore } from './store.ts';
import type { Conn, Room, RoomHost } from './yjs-room.ts';

/**
 * The document code (yjs, y-protocols, lib0: about 1 MB of sources) loads with the first document a
 * connection or a restore opens, not with the server: most processes never co-edit.
 */
let roomCode: Promise<typeof import('./yjs-room.ts')> | undefined;
const loadRoomCode = () => (roomCode ??= import('./yjs-room.ts'));

/** Origin of a whole-document replacement made by the server (a restored version). */
export const REPLACED = Symbol('replaced');

const ID = /^[0-9a-f]{24}$/;
const KEEPALIVE_MS = 30_000;
/** How often open connections are checked again (a project's expiry passing needs no event). */
const RECHECK_MS = 60_000;

/** What a user may do with a project's page documents. */
export type DocAccess = 'write' | 'read' | 'none';

export interface YjsServerOptions {
  db: Kysely<DB>;
  store: DocStore;
  fanout: RedisFanout | undefined;
  /** Unload a document this long after its last connection closed. */
  idleMs: number;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * Role types that may open page documents: drafts are builders' work, as for `/dev/preview` and
 * `?preview=1` (the management area, also on an expired project). Other members are refused.
 */
const BUILDERS = new Set(['owner', 'admin']);

/**
 * The co-editing endpoint: y-websocket protocol at `/yjs/<project>/<page>?token=…`, with
 * per-document permission checks, persistence through the DocStore and optional Redis fan-out.
 */
export class YjsServer implements RoomHost {
  readonly wss = new WebSocketServer({ noServer: true, maxPayload: YJS_MAX_FRAME });
  readonly rooms = new Map<string, Room>();
  readonly stats = { droppedReadOnly: 0, connections: 0, tooLarge: 0 };
  readonly store: DocStore;
  readonly fanout: RedisFanout | undefined;
  readonly idleMs: number;
  readonly log: YjsServerOptions['log'];
  /** Every socket by user, including those still authenticating. */
  private readonly byUser = new Map<string, Set<WebSocket>>();
  private readonly keepalive: NodeJS.Timeout;
  private readonly periodic: NodeJS.Timeout;
  private closing = false;
  /** Queued unloads, run one after another. */
  private unloads: Promise<void> = Promise.resolve();
  private recheckScheduled: Promise<void> | undefined;

  constructor(private readonly opts: YjsServerOptions) {
    this.store = opts.store;
    this.fanout = opts.fanout;
    this.idleMs = opts.idleMs;
    this.log = opts.log;
    this.keepalive = setInterval(() => this.ping(), KEEPALIVE_MS);
    this.keepalive.unref();
    this.periodic = setInterval(() => void this.recheck(), RECHECK_MS);
    this.periodic.unref();
  }

  /**
   * Owners and admins of an active project write; on an expired project they only read, like the
   * rest of its dev area; anyone else (other members, granted the page or not) is out.
   */
  async access(projectId: string, userId: string): Promise<DocAccess> {
    const [member, project] = await Promise.all([
      membership(this.opts.db, projectId, userId),
      findProject(this.opts.db, projectId),
    ]);
    if (!project || member?.status !== 'active' || !BUILDERS.has(member.role_type)) return 'none';
    return isLimited(project) ? 'read' : 'write';
  }

  /**
   * Memberships, roles or projects changed (here or on another process): apply the new rights to
   * open connections. A builder whose project expired keeps the connection, and its next updates
   * are dropped; a demoted builder or a removed member is disconnected. Calls during a running check are folded into one more run.
   */
  recheck(): Promise<void> {
    this.recheckScheduled ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      this.recheckScheduled = undefined;
      const conns = [...this.rooms.values()].flatMap((r) => [...r.conns]);
      if (conns.length === 0) return;
      // Connections exist, so their rooms' code is loaded.
      const { sendReadOnly } = await loadRoomCode();
      const seen = new Map<string, Promise<DocAccess>>();
      await Promise.all(
        conns.map(async (c) => {
          const key = `${c.projectId}:${c.userId}`;
          let p = seen.get(key);
          if (!p) {
            p = this.access(c.projectId, c.userId).catch(() => (c.writable ? 'write' : 'read'));
            seen.set(key, p);
          }
          const access = await p;
          if (access === 'none') c.ws.close(CLOSE.FORBIDDEN, 'no longer a builder of this project');
          else if (access === 'read' && c.writable) {
            c.writable = false;
            sendReadOnly(c);
          } else if (access === 'write' && !c.writable) {
            // Promotion: the client reconnects and is told nothing, so it knows it may write again.
            c.ws.close(CLOSE.RIGHTS, 'rights changed; reconnect');
          }
        }),
      );
    });
    return this.recheckScheduled;
  }

  /** Whether an upgrade request is ours. */
  matches(url: string | undefined): boolean {
    return !!url && (url === YJS_PATH || url.startsWith(`${YJS_PATH}/`) || url.startsWith(`${YJS_PATH}?`));
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => void this.connect(ws, req));
  }

  private async connect(ws: WebSocket, req: IncomingMessage): Promise<void> {
    // Messages may arrive while we authenticate and load: keep them in order.
    const early: Uint8Array[] = [];
    let earlyBytes = 0;
    let conn: Conn | undefined;
    let room: Room | undefined;
    let userId: string | undefined;
    ws.on('message', (data: Buffer) => {
      if (data.length > YJS_MAX_MESSAGE) {
        this.stats.tooLarge++;
        ws.close(CLOSE.TOO_LARGE, 'message too large');
      } else if (conn && room) this.receive(room, conn, data);
      else if (early.length < 1000 && earlyBytes + data.length <= YJS_MAX_MESSAGE) {
        early.push(data);
        earlyBytes += data.length;
      } else ws.close(1008, 'too many messages before the document was ready');
    });
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      if (userId) this.forgetSocket(userId, ws);
      if (conn && room) {
        this.stats.connections--;
        room.remove(conn);
      }
    });
    if (this.closing) return ws.close(1001, 'server closing');

    const url = new URL(req.url ?? '/', 'http://x');
    const parts = url.pathname.slice(YJS_PATH.length + 1).split('/');
    const token = url.searchParams.get('token') ?? '';
    const auth = token ? await resolveToken(this.opts.db, token).catch(() => undefined) : undefined;
    if (auth?.user.status !== 'active') return ws.close(CLOSE.TOKEN, 'token invalid or expired');
    userId = auth.user.id;
    this.rememberSocket(userId, ws);
    const [projectId, pageId] = parts;
    if (parts.length !== 2 || !ID.test(projectId!) || !ID.test(pageId!)) {
      return ws.close(CLOSE.NOT_FOUND, 'unknown page');
    }
    const access = await this.access(projectId!, userId);
    if (access === 'none') return ws.close(CLOSE.FORBIDDEN, 'page drafts are for builders of this project');
    const page = await this.opts.db
      .selectFrom('pages')
      .select('id')
      .where('id', '=', pageId!)
      .where('project_id', '=', projectId!)
      .executeTakeFirst();
    if (!page) return ws.close(CLOSE.NOT_FOUND, 'unknown page');
    if (ws.readyState !== ws.OPEN) return;

    let loaded: Room;
    try {
      loaded = await this.room(pageId!);
    } catch (err) {
      this.log.error({ err, doc: pageId }, 'yjs: document failed to load; refusing connections');
      return ws.close(CLOSE.LOAD_FAILED, 'document failed to load');
    }
    if (ws.readyState !== ws.OPEN) {
      if (loaded.conns.size === 0) loaded.scheduleIdle();
      return;
    }
    room = loaded;
    conn = {
      ws,
      userId,
      projectId: projectId!,
      writable: access === 'write',
      clients: new Set(),
      alive: true,
    };
    ws.on('pong', () => {
      conn!.alive = true;
    });
    this.stats.connections++;
    room.add(conn);
    for (const data of early) this.receive(room, conn, data);
    early.length = 0;
  }

  private receive(room: Room, conn: Conn, data: Uint8Array): void {
    try {
      room.receive(conn, data);
    } catch (err) {
      this.log.warn({ err, doc: room.id }, 'yjs: malformed message; closing the connection');
      conn.ws.close(1003, 'malformed message');
    }
  }

  /** The loaded room for a document, loading it if needed. Rejects when loading fails. */
  private async room(docId: string): Promise<Room> {
    // Before looking: the rooms are checked and set with no await in between.
    const { Room } = await loadRoomCode();
    for (;;) {
      const existing = this.rooms.get(docId);
      if (!existing) break;
      if (existing.state === 'unloading') {
        await existing.unloaded;
        continue;
      }
      await existing.ready;
      return existing;
    }
    const room = new Room(docId, this);
    this.rooms.set(docId, room);
    room.ready = room.load().catch((err) => {
      // A failed load leaves nothing behind: no room, no writes; the next connection tries again.
      this.rooms.delete(docId);
      void this.fanout?.unsubscribe(docId).catch(() => {});
      room.destroy();
      throw err;
    });
    await room.ready;
    return room;
  }

  /**
   * Flush, compact and forget an idle document. Unloads run one at a time, with a turn of the event
   * loop between them: when many documents go idle together (a crowd leaves), their compactions do
   * not stall the documents still in use. A document someone opens again before its turn stays.
   */
  unload(room: Room): void {
    if (room.state !== 'ready' || room.conns.size > 0 || room.unloadQueued) return;
    room.unloadQueued = true;
    this.unloads = this.unloads.then(async () => {
      room.unloadQueued = false;
      if (room.state !== 'ready' || room.conns.size > 0 || this.rooms.get(room.id) !== room) return;
      room.state = 'unloading';
      room.unloaded = (async () => {
        try {
          await this.store.flush();
          await this.store.compact(room.id);
        } catch (err) {
          this.log.warn({ err, doc: room.id }, 'yjs: flush/compaction on unload failed');
        } finally {
          this.store.forget(room.id);
          await this.fanout?.unsubscribe(room.id).catch(() => {});
          room.destroy();
          this.rooms.delete(room.id);
        }
      })();
      await room.unloaded;
      await new Promise<void>((resolve) => setImmediate(resolve));
    });
  }

  /**
   * A page was removed: close its connections, forget its queued updates and its room without
   * writing anything back, so nothing of it is stored again after its rows are deleted.
   */
  async discard(docId: string, announce = true): Promise<void> {
    const room = this.rooms.get(docId);
    if (room) {
      this.rooms.delete(docId);
      for (const c of room.conns) c.ws.close(CLOSE.NOT_FOUND, 'page removed');
      room.conns.clear();
      room.state = 'unloading';
      room.destroy();
      await this.fanout?.unsubscribe(docId).catch(() => {});
    }
    await this.store.discard(docId);
    this.store.forget(docId);
    if (announce) await this.fanout?.discard(docId).catch(() => {});
  }

  /** The saved draft of a page, loaded (migrated, broken widgets marked) for a document's first content. */
  async seed(docId: string): Promise<PageDocument | undefined> {
    const row = await this.opts.db
      .selectFrom('pages')
      .select(['id', 'name', 'draft'])
      .where('id', '=', docId)
      .executeTakeFirst();
    if (!row) return undefined;
    return load(row.draft, row).document;
  }

  /**
   * Put a whole page into a document as one edit (a restored version): open editors receive it like
   * any change, on every process. A document nobody has open is loaded for it (and unloads later).
   */
  async replace(docId: string, page: PageDocument): Promise<void> {
    const { applyPageToDoc } = await import('../../shared/page-ydoc.ts');
    const room = await this.room(docId);
    applyPageToDoc(room.doc, page, REPLACED);
    if (room.conns.size === 0) room.scheduleIdle();
  }

  /** A document message from another process. */
  remote(docId: string, kind: FanKind, payload: Uint8Array): void {
    this.rooms.get(docId)?.receiveRemote(kind, payload);
  }

  private rememberSocket(userId: string, ws: WebSocket): void {
    let set = this.byUser.get(userId);
    if (!set) {
      set = new Set();
      this.byUser.set(userId, set);
    }
    set.add(ws);
  }

  private forgetSocket(userId: string, ws: WebSocket): void {
    const set = this.byUser.get(userId);
    set?.delete(ws);
    if (set?.size === 0) this.byUser.delete(userId);
  }

  /** Close a user's co-editing sockets at once (kick, ban). */
  closeUser(userId: string): number {
    const set = this.byUser.get(userId);
    if (!set) return 0;
    for (const ws of set) {
      ws.close(CLOSE.REVOKED, 'session revoked');
      // Do not wait for the peer's close frame.
      setTimeout(() => ws.terminate(), 200).unref();
    }
    return set.size;
  }

  /** Close a user's co-editing sockets into one project (the membership ended): 4403. */
  closeMember(userId: string, projectId: string): number {
    let n = 0;
    for (const room of this.rooms.values()) {
      for (const c of room.conns) {
        if (c.userId !== userId || c.projectId !== projectId) continue;
        c.ws.close(CLOSE.FORBIDDEN, 'no longer a member of this project');
        n++;
      }
    }
    return n;
  }

  private ping(): void {
    for (const room of this.rooms.values()) {
      for (const c of room.conns) {
        if (!c.alive) {
          c.ws.terminate();
          continue;
        }
        c.alive = false;
        c.ws.ping();
      }
    }
  }

  /** Close every connection, then write and compact every loaded document. */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.keepalive);
    clearInterval(this.periodic);
    for (const ws of this.wss.clients) ws.terminate();
    const rooms = [...this.rooms.values()];
    await Promise.all(rooms.map((r) => r.unloaded ?? r.ready?.catch(() => {})));
    for (const r of this.rooms.values()) {
      r.conns.clear();
      this.unload(r);
    }
    await this.unloads;
    await this.store.close();
    this.wss.close();
  }
}
