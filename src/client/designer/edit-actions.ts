/**
 * The selection's edit actions offered by the canvas's context menu and the toolbar: one table of
 * what each does, when it is offered, and its key (the shortcut list runs the same store commands).
 * Each one that changes the page is one undo step (see store.ts).
 */
import { readStoredClipboard, useDesigner } from './store.ts';

export type EditActionKey = 'duplicate' | 'delete' | 'copy' | 'paste' | 'forward' | 'backward';

export interface EditAction {
  key: EditActionKey;
  /** i18n key of the label. */
  label: string;
  /** The shortcut shown beside it ('' for none). */
  keys: string;
  /** Needs a selection. */
  selection: boolean;
  /** Changes the page (not offered to a read-only session). */
  edits: boolean;
  run: () => void;
}

const st = () => useDesigner.getState();

export const EDIT_ACTIONS: readonly EditAction[] = [
  {
    key: 'duplicate',
    label: 'designer.duplicate',
    keys: 'Ctrl+D',
    selection: true,
    edits: true,
    run: () => void st().duplicate(),
  },
  {
    key: 'copy',
    label: 'designer.copy',
    keys: 'Ctrl+C',
    selection: true,
    edits: false,
    run: () => void st().copy(),
  },
  {
    key: 'paste',
    label: 'designer.paste',
    keys: 'Ctrl+V',
    selection: false,
    edits: true,
    run: () => void st().paste(),
  },
  {
    key: 'forward',
    label: 'designer.bringForward',
    keys: '',
    selection: true,
    edits: true,
    run: () => void st().restack(1),
  },
  {
    key: 'backward',
    label: 'designer.sendBackward',
    keys: '',
    selection: true,
    edits: true,
    run: () => void st().restack(-1),
  },
  {
    key: 'delete',
    label: 'designer.delete',
    keys: 'Delete',
    selection: true,
    edits: true,
    run: () => st().remove(),
  },
];

/** Whether an action can run now (a selection, edit rights, something to paste). */
export function actionEnabled(a: EditAction): boolean {
  const s = st();
  if (a.edits && (s.readOnly || !s.model)) return false;
  if (a.selection && s.selection.size === 0) return false;
  if (a.key === 'paste') return !!readStoredClipboard()?.widgets.length;
  return true;
}

export function editAction(key: EditActionKey): EditAction {
  return EDIT_ACTIONS.find((a) => a.key === key)!;
}
