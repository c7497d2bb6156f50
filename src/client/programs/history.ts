/**
 * Undo/redo of the program being edited: a stack of documents. Edits made in quick succession on the
 * same key (typing in one field) merge into one undo step, so undo takes back a word, not a letter.
 */
import { useCallback, useRef, useState } from 'react';

export interface History<T> {
  value: T;
  set: (next: T, mergeKey?: string) => void;
  undo: () => void;
  redo: () => void;
  canUndo: boolean;
  canRedo: boolean;
  /** Starts over from a value (another program opened, a version restored). */
  reset: (value: T) => void;
}

const MERGE_MS = 800;
const MAX = 200;

export function useHistory<T>(initial: T): History<T> {
  const [state, setState] = useState({ past: [] as T[], value: initial, future: [] as T[] });
  const last = useRef<{ key: string; at: number } | null>(null);
  const set = useCallback((next: T, mergeKey?: string) => {
    const now = Date.now();
    const merge = !!mergeKey && last.current?.key === mergeKey && now - last.current.at < MERGE_MS;
    last.current = mergeKey ? { key: mergeKey, at: now } : null;
    setState((s) => ({
      past: merge ? s.past : [...s.past, s.value].slice(-MAX),
      value: next,
      future: [],
    }));
  }, []);
  const undo = useCallback(() => {
    last.current = null;
    setState((s) =>
      s.past.length === 0
        ? s
        : { past: s.past.slice(0, -1), value: s.past.at(-1) as T, future: [s.value, ...s.future] },
    );
  }, []);
  const redo = useCallback(() => {
    last.current = null;
    setState((s) =>
      s.future.length === 0
        ? s
        : { past: [...s.past, s.value], value: s.future[0] as T, future: s.future.slice(1) },
    );
  }, []);
  const reset = useCallback((value: T) => {
    last.current = null;
    setState({ past: [], value, future: [] });
  }, []);
  return {
    value: state.value,
    set,
    undo,
    redo,
    reset,
    canUndo: state.past.length > 0,
    canRedo: state.future.length > 0,
  };
}
