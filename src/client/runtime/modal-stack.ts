/**
 * The modal stack (spec: z-index 4000; widths 339/535/600/810/900; "single" replaces the stack; on a
 * phone the back button closes the top modal). One stack per window: pages opened in modals stack
 * on top of each other, each closed with an optional result handed to whoever opened it.
 */
import { create } from 'zustand';
import type { ModalRequest } from './actions.ts';

export interface ModalEntry extends ModalRequest {
  key: number;
  project: string;
  mode: 'pc' | 'mobile';
  /** Marked when this entry pushed a history entry (phone mode), so closing pops it. */
  history: boolean;
  onClose?: (result: unknown) => void;
}

interface ModalState {
  stack: ModalEntry[];
  open(entry: Omit<ModalEntry, 'key' | 'history'>): number;
  /** Closes the top modal (or the given one and those above it). */
  close(result?: unknown, key?: number): void;
  clear(): void;
}

let seq = 0;
/** History entries we pushed whose popstate we are expecting (closing by button in phone mode). */
let expectedPops = 0;

function dropFrom(stack: ModalEntry[], index: number, result: unknown): ModalEntry[] {
  const removed = stack.slice(index);
  for (const m of removed.reverse()) m.onClose?.(result);
  return stack.slice(0, index);
}

export const useModals = create<ModalState>()((set, get) => ({
  stack: [],
  open(entry) {
    const key = ++seq;
    const history = entry.mode === 'mobile' && typeof window !== 'undefined';
    if (history) window.history.pushState({ ...window.history.state, lcModal: key }, '');
    const next: ModalEntry = { ...entry, key, history };
    set((s) => ({ stack: entry.single ? [...dropFrom(s.stack, 0, undefined), next] : [...s.stack, next] }));
    return key;
  },
  close(result, key) {
    const { stack } = get();
    const index = key === undefined ? stack.length - 1 : stack.findIndex((m) => m.key === key);
    if (index < 0) return;
    const pushed = stack.slice(index).filter((m) => m.history).length;
    set({ stack: dropFrom(stack, index, result) });
    if (pushed > 0 && typeof window !== 'undefined') {
      expectedPops += 1;
      window.history.go(-pushed);
    }
  },
  clear() {
    set((s) => ({ stack: dropFrom(s.stack, 0, undefined) }));
  },
}));

/** Phone back button: closes the top modal instead of leaving the page. */
export function installBackHandler(): () => void {
  const onPop = () => {
    if (expectedPops > 0) {
      expectedPops -= 1;
      return;
    }
    const { stack } = useModals.getState();
    const top = stack[stack.length - 1];
    if (top?.history) {
      top.history = false;
      useModals.getState().close(undefined, top.key);
    }
  };
  window.addEventListener('popstate', onPop);
  return () => window.removeEventListener('popstate', onPop);
}
