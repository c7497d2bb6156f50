import { useSyncExternalStore } from 'react';
import type { CollabSession, CollabSnapshot } from './session.ts';

const IDLE: CollabSnapshot = { status: 'connecting', synced: false, readOnly: false, peers: [] };
const noop = () => () => {};

/** The session's status, rights and peers; re-renders on change. A null session reads as idle. */
export function useCollab(session: CollabSession | null): CollabSnapshot {
  return useSyncExternalStore(session?.subscribe ?? noop, session?.snapshot ?? (() => IDLE));
}
