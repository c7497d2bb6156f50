/**
 * Co-editing of one page: the designer's Y.Doc synced with the server over the y-websocket protocol
 * (stock client), plus presence (who is here, what each one has selected) over awareness.
 *
 * The server decides rights: a connection that may only read receives an auth "permission denied:
 * read-only" message (on connect, or when its rights drop), and its updates are dropped there; the
 * designer turns read-only on that signal. Close codes say why a connection ended for good.
 */
import type * as decoding from 'lib0/decoding';
import type * as encoding from 'lib0/encoding';
import * as authProtocol from 'y-protocols/auth';
import { WebsocketProvider } from 'y-websocket';
import type * as Y from 'yjs';
import { CLOSE, READ_ONLY_REASON, YJS_PATH } from '../../../shared/realtime.ts';
import { colorFor } from './colors.ts';

export type CollabStatus =
  /** Opening or re-opening the connection. */
  | 'connecting'
  | 'connected'
  /** Lost; reconnecting with back-off (edits stay local and sync when it is back). */
  | 'offline'
  /** The server could not load the document; retrying. */
  | 'unavailable'
  /** Permanent: the token is invalid or the session was revoked. */
  | 'signedOut'
  /** Permanent: not (or no longer) a member of the project. */
  | 'denied'
  /** Permanent: the page does not exist (removed). */
  | 'removed';

export interface Peer {
  clientId: number;
  userId: string;
  name: string;
  color: string;
  /** Widget ids this peer has selected. */
  selection: string[];
  self: boolean;
}

export interface CollabSnapshot {
  status: CollabStatus;
  /** The first sync with the server finished (the document holds the server's content). */
  synced: boolean;
  readOnly: boolean;
  peers: Peer[];
}

export interface CollabOptions {
  project: string;
  page: string;
  token: string;
  user: { id: string; name: string };
  /** ws(s)://host; defaults to this page's origin. */
  origin?: string;
  WebSocketPolyfill?: typeof WebSocket;
}

const MSG_AUTH = 2;
const PERMANENT: Record<number, CollabStatus> = {
  [CLOSE.TOKEN]: 'signedOut',
  [CLOSE.REVOKED]: 'signedOut',
  [CLOSE.FORBIDDEN]: 'denied',
  [CLOSE.NOT_FOUND]: 'removed',
};

interface AwarenessState {
  user?: { id?: unknown; name?: unknown; color?: unknown };
  selection?: unknown;
}

/** Peers from awareness states: own first, then by name; malformed states are skipped. */
export function peersOf(states: Map<number, AwarenessState>, selfId: number): Peer[] {
  const out: Peer[] = [];
  for (const [clientId, st] of states) {
    const u = st?.user;
    if (!u || typeof u.id !== 'string') continue;
    const selection = Array.isArray(st.selection)
      ? st.selection.filter((x): x is string => typeof x === 'string').slice(0, 1000)
      : [];
    out.push({
      clientId,
      userId: u.id,
      name: typeof u.name === 'string' ? u.name.slice(0, 40) : '',
      color: typeof u.color === 'string' && /^#[0-9a-f]{6}$/i.test(u.color) ? u.color : colorFor(u.id),
      selection,
      self: clientId === selfId,
    });
  }
  return out.sort(
    (a, b) => Number(b.self) - Number(a.self) || a.name.localeCompare(b.name) || a.clientId - b.clientId,
  );
}

/** Widget id → the other peers who have it selected. */
export function selectionsByWidget(peers: readonly Peer[]): Map<string, Peer[]> {
  const out = new Map<string, Peer[]>();
  for (const p of peers) {
    if (p.self) continue;
    for (const id of p.selection) {
      let list = out.get(id);
      if (!list) {
        list = [];
        out.set(id, list);
      }
      list.push(p);
    }
  }
  return out;
}

function defaultOrigin(): string {
  const { protocol, host } = globalThis.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}`;
}

export class CollabSession {
  readonly provider: WebsocketProvider;
  private snap: CollabSnapshot = { status: 'connecting', synced: false, readOnly: false, peers: [] };
  private readonly listeners = new Set<() => void>();
  private readonly syncWaiters: (() => void)[] = [];

  constructor(
    readonly doc: Y.Doc,
    opts: CollabOptions,
  ) {
    this.provider = new WebsocketProvider(
      `${opts.origin ?? defaultOrigin()}${YJS_PATH}`,
      `${opts.project}/${opts.page}`,
      doc,
      {
        params: { token: opts.token },
        // Tabs sync through the server only: a read-only tab must never feed a writer's document.
        disableBc: true,
        maxBackoffTime: 5000,
        // Codes 4400–4499 and a revoked session end the session; anything else reconnects.
        shouldReconnect: (e: CloseEvent) => !(e.code in PERMANENT) && !(e.code >= 4400 && e.code < 4500),
        ...(opts.WebSocketPolyfill ? { WebSocketPolyfill: opts.WebSocketPolyfill } : {}),
      },
    );
    this.provider.messageHandlers[MSG_AUTH] = (_enc: encoding.Encoder, dec: decoding.Decoder) => {
      authProtocol.readAuthMessage(dec, doc, (_y, reason) => {
        if (reason === READ_ONLY_REASON) this.set({ readOnly: true });
      });
    };
    const awareness = this.provider.awareness;
    awareness.setLocalStateField('user', {
      id: opts.user.id,
      name: opts.user.name,
      color: colorFor(opts.user.id),
    });
    awareness.setLocalStateField('selection', []);
    awareness.on('change', this.onAwareness);
    this.provider.on('status', ({ status }: { status: string }) => {
      if (status === 'connected') this.set({ status: 'connected' });
      else if (status === 'connecting' && this.snap.status !== 'unavailable')
        this.set({ status: 'connecting' });
    });
    this.provider.on('connection-close', (event: CloseEvent | null) => {
      const code = event?.code ?? 0;
      const permanent = PERMANENT[code];
      if (permanent) this.set({ status: permanent });
      else if (code === CLOSE.LOAD_FAILED) this.set({ status: 'unavailable' });
      // A reconnect starts with full rights again; the server repeats "read-only" if it still applies.
      else this.set({ status: 'offline', readOnly: false });
    });
    this.provider.on('sync', (ok: boolean) => {
      if (!ok) return;
      if (!this.snap.synced) this.set({ synced: true });
      for (const w of this.syncWaiters.splice(0)) w();
    });
    this.onAwareness();
  }

  private onAwareness = (): void => {
    this.set({
      peers: peersOf(this.provider.awareness.getStates() as Map<number, AwarenessState>, this.doc.clientID),
    });
  };

  private set(patch: Partial<CollabSnapshot>): void {
    this.snap = { ...this.snap, ...patch };
    for (const l of this.listeners) l();
  }

  /** Resolves once the document holds the server's content. */
  whenSynced(): Promise<void> {
    if (this.snap.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /** Share this user's selection with the others (outlined in their canvas and layers). */
  setSelection(ids: readonly string[]): void {
    const prev = this.provider.awareness.getLocalState()?.selection as string[] | undefined;
    if (prev && prev.length === ids.length && prev.every((x, i) => x === ids[i])) return;
    this.provider.awareness.setLocalStateField('selection', [...ids]);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): CollabSnapshot => this.snap;

  destroy(): void {
    this.provider.awareness.off('change', this.onAwareness);
    this.listeners.clear();
    this.provider.destroy();
  }
}
