/**
 * Autosave of the draft: a debounced save after this user's changes; never saves a document the
 * validator rejects (the error is shown instead); flushes on demand (leaving the page, Ctrl+S).
 */
import { validatePage } from '../../../widgets/index.ts';
import { LOCAL_ORIGIN, pageFromDoc } from '../../shared/page-ydoc.ts';
import { pagesApi } from '../api/pages.ts';
import type { DocModel } from './model.ts';
import { useDesigner } from './store.ts';

export const AUTOSAVE_MS = 1000;

export interface Autosave {
  flush(): Promise<void>;
  stop(): void;
}

export function startAutosave(model: DocModel, project: string, pageId: string): Autosave {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const st = () => useDesigner.getState();

  async function save(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    const doc = pageFromDoc(model.doc);
    const r = validatePage(doc);
    if (!r.ok) {
      st().setSave('invalid', r.errors.map((e) => `${e.path} ${e.message}`).join('; '));
      return;
    }
    st().setSave('saving');
    running = pagesApi.save(project, pageId, doc).then(
      () => {
        running = null;
        if (again) {
          again = false;
          return save();
        }
        if (st().save === 'saving') st().setSave('saved');
      },
      (e: unknown) => {
        running = null;
        st().setSave('error', e instanceof Error ? e.message : String(e));
      },
    );
    return running;
  }

  // Each writer saves what it changed (its edits, undo and redo); a peer's edits are saved by that
  // peer, and a restored version by the server, so co-editors do not all save every change.
  const onUpdate = (_update: Uint8Array, origin: unknown) => {
    if (stopped || (origin !== LOCAL_ORIGIN && origin !== model.undo)) return;
    st().setSave('dirty');
    clearTimeout(timer);
    timer = setTimeout(() => void save(), AUTOSAVE_MS);
  };
  model.doc.on('update', onUpdate);

  return {
    flush: async () => {
      if (timer === undefined && !running) return;
      clearTimeout(timer);
      timer = undefined;
      if (st().save === 'dirty' || running) await save();
      if (running) await running;
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      model.doc.off('update', onUpdate);
    },
  };
}
