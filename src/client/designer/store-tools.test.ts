/** The designer store's zoom to fit, and the commands behind the toolbar's and context menu's actions. */
import { describe, expect, it } from 'vitest';
import { emptyPage, instanceOf } from '../../../tests/fixtures/pages.ts';
import { getWidget } from '../../../widgets/index.ts';
import { docFromPage, pageFromDoc } from '../../shared/page-ydoc.ts';
import { CLIPBOARD_KEY } from './commands.ts';
import { actionEnabled, EDIT_ACTIONS, type EditActionKey, editAction } from './edit-actions.ts';
import { DocModel } from './model.ts';
import { fitZoom, restackMoves, useDesigner } from './store.ts';

const text = getWidget('text')!;

function open() {
  const page = emptyPage();
  page.widgets = [instanceOf(text, 'a'), instanceOf(text, 'b', 6), instanceOf(text, 'c', 12)];
  const doc = docFromPage(page);
  const model = new DocModel(doc);
  useDesigner.getState().setModel(model, 'page1');
  return { doc, model };
}

describe('zoom to fit the width', () => {
  it('fits the page into the canvas area, never above 100 % nor below 25 %', () => {
    // 1280 × 800: the canvas area left between the side panels, a page 1,200 px wide.
    expect(fitZoom(672, 1200)).toBe(0.56);
    expect(fitZoom(2000, 1200)).toBe(1);
    expect(fitZoom(672, 375)).toBe(1);
    expect(fitZoom(100, 1200)).toBe(0.25);
    expect(fitZoom(0, 1200)).toBe(1);
    expect(fitZoom(Number.NaN, 1200)).toBe(1);
  });

  it('is on when a page opens; a picked zoom turns it off until asked again', () => {
    const st = useDesigner.getState();
    st.setZoom(1.5);
    open();
    expect(useDesigner.getState().zoomFit).toBe(true);
    st.setFitZoom(0.56);
    expect(useDesigner.getState().zoom).toBe(0.56);
    // 100 % (Ctrl+0, the value button) and the − / + steps are the user's choice: the fit stops.
    st.setZoom(1);
    expect(useDesigner.getState()).toMatchObject({ zoom: 1, zoomFit: false });
    st.setFitZoom(0.7);
    expect(useDesigner.getState().zoom).toBe(1);
    st.zoomToFit();
    st.setFitZoom(0.7);
    expect(useDesigner.getState().zoom).toBe(0.7);
    st.zoomBy(1);
    expect(useDesigner.getState()).toMatchObject({ zoom: 0.75, zoomFit: false });
  });
});

describe('stacking order (bring forward, send backward)', () => {
  it('moves a widget one place among its siblings, as one undo step', () => {
    const { doc, model } = open();
    const st = useDesigner.getState();
    const start = pageFromDoc(doc);
    st.select(['a']);
    expect(st.restack(1)).toBe(true);
    expect(model.children(null)).toEqual(['b', 'a', 'c']);
    const once = pageFromDoc(doc);
    expect(st.restack(1)).toBe(true);
    expect(model.children(null)).toEqual(['b', 'c', 'a']);
    // Already on top: nothing to do, no step.
    expect(st.restack(1)).toBe(false);
    st.undo();
    expect(pageFromDoc(doc)).toEqual(once);
    st.undo();
    expect(pageFromDoc(doc)).toEqual(start);
    st.redo();
    expect(model.children(null)).toEqual(['b', 'a', 'c']);
    st.select(['c']);
    expect(st.restack(-1)).toBe(true);
    expect(model.children(null)).toEqual(['b', 'c', 'a']);
    st.undo();
    expect(model.children(null)).toEqual(['b', 'a', 'c']);
  });

  it('selected neighbours move as a block and never jump over each other', () => {
    const { model } = open();
    expect(restackMoves(model, ['a', 'b'], 1)).toEqual([
      ['b', null, 2],
      ['a', null, 1],
    ]);
    expect(restackMoves(model, ['b', 'c'], 1)).toEqual([]);
    expect(restackMoves(model, ['a', 'c'], -1)).toEqual([['c', null, 1]]);
  });

  it('is refused to a read-only session', () => {
    const { model } = open();
    const st = useDesigner.getState();
    st.setReadOnly(true);
    st.select(['a']);
    expect(st.restack(1)).toBe(false);
    expect(model.children(null)).toEqual(['a', 'b', 'c']);
    st.setReadOnly(false);
  });
});

describe('the toolbar and context menu actions', () => {
  const store = new Map<string, string>();
  globalThis.localStorage ??= {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  } as Storage;

  it('each changing action is one undo step, undone and redone', () => {
    const { doc, model } = open();
    const st = useDesigner.getState();
    st.select(['a']);
    editAction('copy').run();
    // The action, what is selected when it runs, and the page's top-level widgets after it.
    const cases: [EditActionKey, string, (ids: readonly string[]) => void][] = [
      ['duplicate', 'a', (ids) => expect(ids).toHaveLength(4)],
      ['paste', 'a', (ids) => expect(ids).toHaveLength(4)],
      ['forward', 'a', (ids) => expect(ids).toEqual(['b', 'a', 'c'])],
      ['backward', 'c', (ids) => expect(ids).toEqual(['a', 'c', 'b'])],
      ['delete', 'a', (ids) => expect(ids).toEqual(['b', 'c'])],
    ];
    for (const [key, selected, check] of cases) {
      st.select([selected]);
      const before = pageFromDoc(doc);
      const action = editAction(key);
      expect(actionEnabled(action), key).toBe(true);
      action.run();
      const after = pageFromDoc(doc);
      check(model.children(null));
      expect(after, key).not.toEqual(before);
      st.undo();
      expect(pageFromDoc(doc), `${key} undone`).toEqual(before);
      st.redo();
      expect(pageFromDoc(doc), `${key} redone`).toEqual(after);
      st.undo();
    }
  });

  it('are offered only when they can run', () => {
    open();
    const st = useDesigner.getState();
    localStorage.removeItem(CLIPBOARD_KEY);
    st.select([]);
    for (const a of EDIT_ACTIONS) expect(actionEnabled(a), a.key).toBe(false);
    st.select(['a']);
    expect(EDIT_ACTIONS.filter(actionEnabled).map((a) => a.key)).toEqual([
      'duplicate',
      'copy',
      'forward',
      'backward',
      'delete',
    ]);
    editAction('copy').run();
    expect(actionEnabled(editAction('paste'))).toBe(true);
    st.setReadOnly(true);
    expect(EDIT_ACTIONS.filter(actionEnabled).map((a) => a.key)).toEqual(['copy']);
    st.setReadOnly(false);
  });
});
