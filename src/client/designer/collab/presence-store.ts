/**
 * Other people's selections by widget, for the canvas outlines and the layers tree. A widget's entry
 * keeps its identity while the peers on it stay the same, so only widgets whose outline changes
 * re-render when someone selects something.
 */
import { create } from 'zustand';
import { type Peer, selectionsByWidget } from './session.ts';

interface PresenceState {
  byWidget: ReadonlyMap<string, readonly Peer[]>;
  setPeers(peers: readonly Peer[]): void;
}

const signature = (list: readonly Peer[]) => list.map((p) => `${p.clientId}:${p.color}:${p.name}`).join('|');

export const usePresence = create<PresenceState>()((set, get) => ({
  byWidget: new Map(),
  setPeers: (peers) => {
    const prev = get().byWidget;
    const next = new Map<string, readonly Peer[]>();
    let changed = false;
    for (const [id, list] of selectionsByWidget(peers)) {
      const old = prev.get(id);
      if (old && signature(old) === signature(list)) next.set(id, old);
      else {
        next.set(id, list);
        changed = true;
      }
    }
    if (changed || next.size !== prev.size) set({ byWidget: next });
  },
}));
