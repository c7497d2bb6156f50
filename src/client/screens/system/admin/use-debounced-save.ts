import { useCallback, useEffect, useRef, useState } from 'react';

export type SaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'failed';

/**
 * Saves the latest value `delayMs` after the last change (the spec's translation save debounce is
 * 500 ms); a change while saving is saved after. Pending changes are saved when the screen closes.
 */
export function useDebouncedSave<T>(save: (value: T) => Promise<void>, delayMs: number) {
  const [state, setState] = useState<SaveState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef<{ value: T } | null>(null);
  const saveRef = useRef(save);
  saveRef.current = save;

  const flush = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const next = latest.current;
    if (!next) return;
    latest.current = null;
    setState('saving');
    try {
      await saveRef.current(next.value);
      setState(latest.current ? 'pending' : 'saved');
    } catch {
      setState('failed');
    }
  }, []);

  const change = useCallback(
    (value: T) => {
      latest.current = { value };
      setState('pending');
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), delayMs);
    },
    [delayMs, flush],
  );

  useEffect(() => () => void flush(), [flush]);
  return { state, change, flush };
}
