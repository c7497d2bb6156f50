import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import type { WebSocket } from 'ws';
import * as authProtocol from 'y-protocols/auth';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import type { PageDocument } from '../../shared/page-document.ts';
import { applyPageToDoc } from '../../shared/page-ydoc.ts';
import { READ_ONLY_REASON } from '../../shared/realtime.ts';
import { FAN, type FanKind, type RedisFanout } from './fanout.ts';
import type { DocStore } from './store.ts';
import { applyAll } from './ydoc-merge.ts';

/** y-websocket message types. */
export const MSG = { SYNC: 0, AWARENESS: 1, AUTH: 2, QUERY_AWARENESS: 3 } as const;

/** Origin of changes that came from another server process. */
export const REMOTE = Symbol('remote');
/** Origin of changes read from the database. */
export const LOADED = Symbol('loaded');
/** Origin of the first content of a document, built from the page's saved draft. */
export const SEEDED = Symbol('seeded');

/** Most awareness client ids one connection may introduce (a provider uses one per Y.Doc). */
export const MAX_CLIENTS_PER_CONN = 4;

/** One client connection to a document. */
export interface Conn {
  ws: WebSocket;
  userId: string;
  projectId: string;
  /** Re-evaluated when memberships or roles change, so a demotion needs no reconnect. */
  writable: boolean;
  /** Awareness client ids this connection controls (removed when it closes). */
  clients: Set<number>;
  alive: boolean;
}

export interface RoomHost {
  store: DocStore;
  fanout: RedisFanout | undefined;
  idleMs: number;
  log: { warn(obj: object, msg: string): void };
  stats: { droppedReadOnly: number };
  unload(room: Room): void;
  /** The page a document starts from when nothing is stored for it yet (its saved draft). */
  seed(docId: string): Promise<PageDocument | undefined>;
}

/** Tell a connection it may only read: y-websocket's auth message, "permission denied". */
export function sendReadOnly(conn: Conn): void {
  const enc = encoding.createEncoder();
  encoding.writeVarUint(enc, MSG.AUTH);
  authProtocol.writePermissionDenied(enc, READ_ONLY_REASON);
  send(conn, encoding.toUint8Array(enc));
}

function send(conn: Conn, message: Uint8Array): void {
  if (conn.ws.readyState !== conn.ws.OPEN) return;
  // A failed write surfaces as the socket's 'error' event, which terminates it.
  conn.ws.send(message);
}

/** A loaded document: its Y.Doc, awareness and connections. */
export class Room {
  readonly doc = new Y.Doc();
  readonly awareness = new awarenessProtocol.Awareness(this.doc);
  readonly conns = new Set<Conn>();
  /** Awareness client ids that arrived from other server processes (no local connection may set them). */
  private readonly remoteClients = new Set<number>();
  private outbox: Uint8Array[] = [];
  private outboxOrigins = new Set<unknown>();
  private outboxScheduled = false;
  private idleTimer: NodeJS.Timeout | undefined;
  state: 'loading' | 'ready' | 'unloading' = 'loading';
  /** Waiting in the server's unload queue (still ready: a new connection keeps it). */
  unloadQueued = false;
  /** Resolves when the load finished (rejects when it failed). */
  ready: Promise<void> | undefined;
  /** Resolves when an unload finished (a new Room may then be loaded for the same id). */
  unloaded: Promise<void> | undefined;

  constructor(
    readonly id: string,
    private readonly host: RoomHost,
  ) {
    this.awareness.setLocalState(null);
  }

  /** Read the stored document. Throws when it cannot be decoded; nothing is written then. */
  async load(): Promise<void> {
    const { fanout, store } = this.host;
    // Subscribe before reading so nothing published in between is missed.
    if (fanout) await fanout.subscribe(this.id);
    const updates = await store.load(this.id);
    applyAll(this.doc, updates, LOADED);
    // Nothing stored yet: start from the saved draft, so every client (and every process) syncs
    // the same content instead of each building its own copy. Read before listening, applied after,
    // so the seed is stored and fanned out like any edit.
    const seed = updates.length === 0 ? await this.host.seed(this.id) : undefined;
    this.doc.on('update', this.onUpdate);
    this.awareness.on('update', this.onAwareness);
    if (seed) Y.applyUpdate(this.doc, seedUpdate(seed), SEEDED);
    this.state = 'ready';
    // Ask peers for anything they hold that is not stored yet (their batch may be in flight).
    fanout?.publish(this.id, FAN.QUERY, Y.encodeStateVector(this.doc));
  }

  private onUpdate = (update: Uint8Array, origin: unknown): void => {
    if (origin === LOADED) return;
    this.outbox.push(update);
    this.outboxOrigins.add(origin);
    if (!this.outboxScheduled) {
      this.outboxScheduled = true;
      setImmediate(this.flushOutbox);
    }
    if (origin === REMOTE) return;
    this.host.store.append(this.id, update);
    this.host.fanout?.publish(this.id, FAN.UPDATE, update);
  };

  /**
   * Relay what arrived during one turn of the event loop as one merged update: under load a busy
   * room sends one frame per client per turn instead of one per update (the socket writes are what
   * costs). When a single client caused the batch it does not get its own changes back.
   */
  private flushOutbox = (): void => {
    this.outboxScheduled = false;
    const updates = this.outbox;
    const origins = this.outboxOrigins;
    this.outbox = [];
    this.outboxOrigins = new Set();
    if (updates.length === 0 || this.conns.size === 0 || this.state === 'unloading') return;
    const update = updates.length === 1 ? updates[0]! : Y.mergeUpdates(updates);
    const enc = encoding.createEncoder();
    encoding.writeVarUint(enc, MSG.SYNC);
    syncProtocol.writeUpdate(enc, update);
    const message = encoding.toUint8Array(enc);
    const skip = origins.size === 1 ? origins.values().next().value : undefined;
    for (const c of this.conns) if (c !== skip) send(c, message);
  };

  private onAwareness = (
    { added, updated, removed }: { added: number[]; updated: number[]; removed: number[] },
    origin: unknown,
  ): void => {
    const changed = added.concat(updated, removed);
    const conn = origin as Conn;
    if (this.conns.has(conn)) {
      for (const id of added) conn.clients.add(id);
      for (const id of removed) conn.clients.delete(id);
    } else if (origin === REMOTE) {
      for (const id of added) this.remoteClients.add(id);
      for (const id of removed) this.remoteClients.delete(id);
    }
    const update = awarenessProtocol.encodeAwarenessUpdate(this.awareness, changed);
    const enc = encoding.createEncoder();
    encoding.writeVarUint(enc, MSG.AWARENESS);
    encoding.writeVarUint8Array(enc, update);
    const message = encoding.toUint8Array(enc);
    for (const c of this.conns) if (c !== origin) send(c, message);
    if (origin !== REMOTE) this.host.fanout?.publish(this.id, FAN.AWARENESS, update);
  };

  /** Attach a connection: send our state vector and everyone's awareness. */
  add(conn: Conn): void {
    this.cancelIdle();
    this.conns.add(conn);
    const enc = encoding.createEncoder();
    encoding.writeVarUint(enc, MSG.SYNC);
    syncProtocol.writeSyncStep1(enc, this.doc);
    send(conn, encoding.toUint8Array(enc));
    const states = this.awareness.getStates();
    if (states.size > 0) send(conn, this.awarenessMessage([...states.keys()]));
    if (!conn.writable) sendReadOnly(conn);
  }

  private awarenessMessage(clients: number[]): Uint8Array {
    const enc = encoding.createEncoder();
    encoding.writeVarUint(enc, MSG.AWARENESS);
    encoding.writeVarUint8Array(enc, awarenessProtocol.encodeAwarenessUpdate(this.awareness, clients));
    return encoding.toUint8Array(enc);
  }

  remove(conn: Conn): void {
    if (!this.conns.delete(conn)) return;
    if (conn.clients.size > 0)
      awarenessProtocol.removeAwarenessStates(this.awareness, [...conn.clients], null);
    if (this.conns.size === 0) this.scheduleIdle();
  }

  scheduleIdle(): void {
    this.cancelIdle();
    this.idleTimer = setTimeout(() => {
      if (this.conns.size === 0) this.host.unload(this);
    }, this.host.idleMs);
  }

  private cancelIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  /** Handle one y-websocket message from a client. Throws on malformed input. */
  receive(conn: Conn, data: Uint8Array): void {
    const dec = decoding.createDecoder(data);
    const type = decoding.readVarUint(dec);
    if (type === MSG.SYNC) {
      const sub = decoding.readVarUint(dec);
      if (sub === syncProtocol.messageYjsSyncStep1) {
        const enc = encoding.createEncoder();
        encoding.writeVarUint(enc, MSG.SYNC);
        syncProtocol.readSyncStep1(dec, enc, this.doc);
        send(conn, encoding.toUint8Array(enc));
      } else if (sub === syncProtocol.messageYjsSyncStep2 || sub === syncProtocol.messageYjsUpdate) {
        const update = decoding.readVarUint8Array(dec);
        // Readers may sync and watch, but what they send is neither applied nor stored.
        if (conn.writable) Y.applyUpdate(this.doc, update, conn);
        else this.host.stats.droppedReadOnly++;
      } else {
        throw new Error(`unknown sync message ${sub}`);
      }
    } else if (type === MSG.AWARENESS) {
      const update = this.ownAwareness(conn, decoding.readVarUint8Array(dec));
      if (update) awarenessProtocol.applyAwarenessUpdate(this.awareness, update, conn);
    } else if (type === MSG.QUERY_AWARENESS) {
      send(conn, this.awarenessMessage([...this.awareness.getStates().keys()]));
    }
    // Auth messages (2) only flow server → client; anything else is ignored.
  }

  /**
   * The part of an awareness update a connection may make: states of client ids it introduced. An id
   * is introduced by the first connection that sends it while no other connection (here or on another
   * process) holds it; entries for anyone else's id are dropped (presence cannot be spoofed), and so
   * are new ids past MAX_CLIENTS_PER_CONN. Answers null when nothing is left.
   */
  private ownAwareness(conn: Conn, update: Uint8Array): Uint8Array | null {
    const dec = decoding.createDecoder(update);
    const n = decoding.readVarUint(dec);
    const kept: Array<{ id: number; clock: number; state: string }> = [];
    let introduced = conn.clients.size;
    if (n > MAX_CLIENTS_PER_CONN * 4) throw new Error('too many awareness entries');
    for (let i = 0; i < n; i++) {
      const id = decoding.readVarUint(dec);
      const clock = decoding.readVarUint(dec);
      const state = decoding.readVarString(dec);
      if (!conn.clients.has(id)) {
        if (this.remoteClients.has(id) || introduced >= MAX_CLIENTS_PER_CONN) continue;
        let held = false;
        for (const c of this.conns) if (c !== conn && c.clients.has(id)) held = true;
        if (held) continue;
        // Claimed now: an id whose earlier holder left counts as "updated", not "added", below.
        conn.clients.add(id);
        introduced++;
      }
      kept.push({ id, clock, state });
    }
    if (kept.length === 0) return null;
    if (kept.length === n) return update;
    const enc = encoding.createEncoder();
    encoding.writeVarUint(enc, kept.length);
    for (const k of kept) {
      encoding.writeVarUint(enc, k.id);
      encoding.writeVarUint(enc, k.clock);
      encoding.writeVarString(enc, k.state);
    }
    return encoding.toUint8Array(enc);
  }

  /** A message for this document from another server process. */
  receiveRemote(kind: FanKind, payload: Uint8Array): void {
    if (this.state !== 'ready') return;
    try {
      if (kind === FAN.UPDATE) Y.applyUpdate(this.doc, payload, REMOTE);
      else if (kind === FAN.AWARENESS)
        awarenessProtocol.applyAwarenessUpdate(this.awareness, payload, REMOTE);
      else if (kind === FAN.QUERY) {
        const diff = Y.encodeStateAsUpdate(this.doc, payload);
        // An update with no structs and no deletions is two zero bytes.
        if (diff.length > 2) this.host.fanout?.publish(this.id, FAN.UPDATE, diff);
      }
    } catch (err) {
      this.host.log.warn({ err, doc: this.id }, 'yjs: bad message from a peer process');
    }
  }

  /** Stop listening and free memory (the caller flushed and compacted). */
  destroy(): void {
    this.cancelIdle();
    this.doc.off('update', this.onUpdate);
    this.awareness.off('update', this.onAwareness);
    this.awareness.destroy();
    this.doc.destroy();
  }
}

/**
 * The first content of a document as one update written by client id 0: the same draft gives the
 * same bytes on every process, so two processes seeding the same document at once add nothing twice.
 */
export function seedUpdate(page: PageDocument): Uint8Array {
  const doc = new Y.Doc();
  doc.clientID = 0;
  applyPageToDoc(doc, page);
  const update = Y.encodeStateAsUpdate(doc);
  doc.destroy();
  return update;
}
