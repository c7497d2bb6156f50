/** Keyboard shortcuts of the designer: one table drives both the key handler and the help popover. */
import { useEffect } from 'react';
import { useDesigner } from './store.ts';

export interface Shortcut {
  keys: string;
  /** i18n key of the description. */
  label: string;
  match: (e: KeyboardEvent) => boolean;
  run: (e: KeyboardEvent) => void;
}

const mod = (e: KeyboardEvent) => e.ctrlKey || e.metaKey;
const st = () => useDesigner.getState();
const key = (e: KeyboardEvent) => e.key.toLowerCase();

export const SHORTCUTS: Shortcut[] = [
  {
    keys: 'Ctrl+Z',
    label: 'designer.undo',
    match: (e) => mod(e) && !e.shiftKey && key(e) === 'z',
    run: () => st().undo(),
  },
  {
    keys: 'Ctrl+Shift+Z / Ctrl+Y',
    label: 'designer.redo',
    match: (e) => mod(e) && ((e.shiftKey && key(e) === 'z') || key(e) === 'y'),
    run: () => st().redo(),
  },
  {
    keys: 'Ctrl+C',
    label: 'designer.copy',
    match: (e) => mod(e) && key(e) === 'c',
    run: () => void st().copy(),
  },
  { keys: 'Ctrl+X', label: 'designer.cut', match: (e) => mod(e) && key(e) === 'x', run: () => st().cut() },
  {
    keys: 'Ctrl+V',
    label: 'designer.paste',
    match: (e) => mod(e) && key(e) === 'v',
    run: () => void st().paste(),
  },
  {
    keys: 'Ctrl+D',
    label: 'designer.duplicate',
    match: (e) => mod(e) && key(e) === 'd',
    run: () => void st().duplicate(),
  },
  {
    keys: 'Ctrl+A',
    label: 'designer.selectAll',
    match: (e) => mod(e) && key(e) === 'a',
    run: () => {
      const m = st().model;
      if (m) st().select([...m.children(null)]);
    },
  },
  {
    keys: 'Delete / Backspace',
    label: 'designer.delete',
    match: (e) => !mod(e) && (e.key === 'Delete' || e.key === 'Backspace'),
    run: () => st().remove(),
  },
  { keys: 'Esc', label: 'designer.deselect', match: (e) => e.key === 'Escape', run: () => st().select([]) },
  {
    keys: '← ↑ → ↓ (Shift ×10)',
    label: 'designer.nudge',
    match: (e) => !mod(e) && !e.altKey && e.key.startsWith('Arrow'),
    run: (e) => {
      const n = e.shiftKey ? 10 : 1;
      const d = { ArrowLeft: [-n, 0], ArrowRight: [n, 0], ArrowUp: [0, -n], ArrowDown: [0, n] }[e.key] ?? [
        0, 0,
      ];
      st().nudge(d[0]!, d[1]!);
    },
  },
  {
    keys: 'Ctrl+= / Ctrl++',
    label: 'designer.zoomIn',
    match: (e) => mod(e) && !e.altKey && (e.key === '=' || e.key === '+'),
    run: () => st().zoomBy(1),
  },
  {
    keys: 'Ctrl+-',
    label: 'designer.zoomOut',
    match: (e) => mod(e) && !e.altKey && (e.key === '-' || e.key === '_'),
    run: () => st().zoomBy(-1),
  },
  {
    keys: 'Ctrl+0',
    label: 'designer.zoomReset',
    match: (e) => mod(e) && !e.altKey && e.key === '0',
    run: () => st().setZoom(1),
  },
  {
    // The page opens fitted; a picked zoom (Ctrl+0 included) holds until this key or the toolbar's fit.
    keys: 'Shift+1',
    label: 'designer.zoomFit',
    match: (e) => !mod(e) && !e.altKey && e.shiftKey && e.code === 'Digit1',
    run: () => st().zoomToFit(),
  },
  {
    keys: 'Alt+A',
    label: 'designer.alignLeft',
    match: (e) => e.altKey && !e.shiftKey && e.code === 'KeyA',
    run: () => st().align('left'),
  },
  {
    keys: 'Alt+D',
    label: 'designer.alignRight',
    match: (e) => e.altKey && !e.shiftKey && e.code === 'KeyD',
    run: () => st().align('right'),
  },
  {
    keys: 'Alt+W',
    label: 'designer.alignTop',
    match: (e) => e.altKey && !e.shiftKey && e.code === 'KeyW',
    run: () => st().align('top'),
  },
  {
    keys: 'Alt+S',
    label: 'designer.alignBottom',
    match: (e) => e.altKey && !e.shiftKey && e.code === 'KeyS',
    run: () => st().align('bottom'),
  },
  {
    keys: 'Alt+H',
    label: 'designer.alignHcenter',
    match: (e) => e.altKey && !e.shiftKey && e.code === 'KeyH',
    run: () => st().align('hcenter'),
  },
  {
    keys: 'Alt+V',
    label: 'designer.alignVcenter',
    match: (e) => e.altKey && !e.shiftKey && e.code === 'KeyV',
    run: () => st().align('vcenter'),
  },
  {
    keys: 'Alt+Shift+H',
    label: 'designer.distributeH',
    match: (e) => e.altKey && e.shiftKey && e.code === 'KeyH',
    run: () => st().distribute('h'),
  },
  {
    keys: 'Alt+Shift+V',
    label: 'designer.distributeV',
    match: (e) => e.altKey && e.shiftKey && e.code === 'KeyV',
    run: () => st().distribute('v'),
  },
];

/** Typing in a field keeps its own keys. */
function inField(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el?.tagName) return false;
  return (
    el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || !!el.closest('.monaco-editor')
  );
}

export function useShortcuts(extra?: (e: KeyboardEvent) => boolean): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (inField(e.target)) return;
      if (extra?.(e)) return;
      const s = SHORTCUTS.find((x) => x.match(e));
      if (!s) return;
      e.preventDefault();
      s.run(e);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [extra]);
}
