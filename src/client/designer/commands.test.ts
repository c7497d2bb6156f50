import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { emptyPage, instanceOf } from '../../../tests/fixtures/pages.ts';
import { getWidget } from '../../../widgets/index.ts';
import type { GridPos, WidgetInstance } from '../../shared/page-document.ts';
import {
  docFromPage,
  insertWidgets,
  LOCAL_ORIGIN,
  pageFromDoc,
  patchProps,
  setLayouts,
} from '../../shared/page-ydoc.ts';
import {
  align,
  CLIPBOARD_TAG,
  cloneWithNewIds,
  distribute,
  freeSpot,
  nudge,
  parseClipboard,
  placeGroup,
  rewriteExpr,
} from './commands.ts';
import { BULK_ADD, DocModel } from './model.ts';
import { nextZoom, useDesigner } from './store.ts';

const text = getWidget('text')!;
const block = getWidget('block')!;
const button = getWidget('button')!;

describe('paste id rewiring', () => {
  function group(): WidgetInstance[] {
    const b = instanceOf(block, 'box');
    const t = instanceOf(text, 'title');
    t.props.text = 'Hello {{ title.value }} and {{ outside.value }}';
    const btn = instanceOf(button, 'go');
    btn.props.text = { $expr: 'title.value + outside.value + state.title' };
    btn.events = {
      onClick: [
        { type: 'refreshWidget', widget: 'title' },
        { type: 'refreshWidget', widget: 'outside' },
        { type: 'submitForm', form: 'box' },
      ],
    };
    btn.hidden = { $expr: "box.hidden && 'title' == x.title" };
    b.children = [t, btn];
    return [b];
  }

  it('gives every widget a fresh valid id', () => {
    const { widgets, map } = cloneWithNewIds(group());
    expect(map.size).toBe(3);
    const ids = [widgets[0]!.id, ...widgets[0]!.children!.map((c) => c.id)];
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/);
      expect(['box', 'title', 'go']).not.toContain(id);
    }
  });

  it('rewires bindings, templates and event targets inside the group, keeps outside ones', () => {
    const { widgets, map } = cloneWithNewIds(group());
    const [t, btn] = widgets[0]!.children!;
    const T = map.get('title')!;
    expect(t!.props.text).toBe(`Hello {{ ${T}.value }} and {{ outside.value }}`);
    expect(btn!.props.text).toEqual({ $expr: `${T}.value + outside.value + state.title` });
    expect(btn!.events!.onClick).toEqual([
      { type: 'refreshWidget', widget: T },
      { type: 'refreshWidget', widget: 'outside' },
      { type: 'submitForm', form: map.get('box') },
    ]);
    // member names (x.title) and string literals inside expressions are not identifiers of widgets
    expect(btn!.hidden).toEqual({ $expr: `${map.get('box')}.hidden && 'title' == x.title` });
  });

  it('does not touch the originals', () => {
    const g = group();
    const before = structuredClone(g);
    cloneWithNewIds(g);
    expect(g).toEqual(before);
  });

  it('rewriteExpr replaces whole identifiers only', () => {
    const map = new Map([['w1', 'n1']]);
    expect(rewriteExpr('w1 + w10 + a.w1 + w1.value', map)).toBe('n1 + w10 + a.w1 + n1.value');
  });

  it('clipboard text that is not ours is ignored', () => {
    expect(parseClipboard('hello')).toBeUndefined();
    expect(parseClipboard('{"tag":"x","widgets":[]}')).toBeUndefined();
    expect(
      parseClipboard(JSON.stringify({ tag: 'lowcode-widgets/v1', page: 'p', widgets: [] })),
    ).toBeDefined();
  });
});

describe('align and distribute', () => {
  const pos: Record<string, GridPos> = {
    a: { x: 2, y: 1, w: 4, h: 2 },
    b: { x: 10, y: 5, w: 6, h: 4 },
    c: { x: 5, y: 12, w: 2, h: 2 },
  };
  it('aligns edges and centres to the bounding box', () => {
    expect(Object.values(align(pos, 'left')).map((p) => p.x)).toEqual([2, 2, 2]);
    expect(Object.values(align(pos, 'right')).map((p) => p.x + p.w)).toEqual([16, 16, 16]);
    expect(Object.values(align(pos, 'top')).map((p) => p.y)).toEqual([1, 1, 1]);
    expect(Object.values(align(pos, 'bottom')).map((p) => p.y + p.h)).toEqual([14, 14, 14]);
    expect(align(pos, 'hcenter')).toMatchObject({ a: { x: 7 }, b: { x: 6 }, c: { x: 8 } });
    expect(align(pos, 'vcenter')).toMatchObject({ a: { y: 7 }, b: { y: 6 }, c: { y: 7 } });
    // sizes never change
    for (const [id, p] of Object.entries(align(pos, 'right')))
      expect([p.w, p.h]).toEqual([pos[id]!.w, pos[id]!.h]);
  });
  it('a single widget is left as it is', () => {
    expect(align({ a: pos.a! }, 'right')).toEqual({ a: pos.a });
  });
  it('distributes with equal gaps, ends fixed', () => {
    const d = distribute(
      { a: { x: 0, y: 0, w: 2, h: 1 }, b: { x: 3, y: 0, w: 4, h: 1 }, c: { x: 18, y: 0, w: 2, h: 1 } },
      'h',
    );
    expect(d.a!.x).toBe(0);
    expect(d.c!.x).toBe(18);
    // gaps: (20 - 8) / 2 = 6 → b at 2 + 6 = 8
    expect(d.b!.x).toBe(8);
    const v = distribute(pos, 'v');
    expect(v.a!.y).toBe(1);
    expect(v.c!.y).toBe(12);
    expect(v.b!.y).toBe(Math.round(1 + 2 + (13 - 8) / 2));
  });
  it('placeGroup keeps a free spot, else moves the whole group below what it would cover', () => {
    const g = [instanceOf(text, 'p'), instanceOf(text, 'q')];
    g[0]!.layout = { pc: { x: 0, y: 0, w: 4, h: 2 }, mobile: { x: 0, y: 0, w: 4, h: 2 } };
    g[1]!.layout = { pc: { x: 6, y: 1, w: 4, h: 2 }, mobile: { x: 0, y: 2, w: 4, h: 2 } };
    const free = placeGroup(g, { pc: [{ x: 20, y: 0, w: 4, h: 9 }], mobile: [] });
    expect(free.map((w) => w.layout)).toEqual(g.map((w) => w.layout));
    const moved = placeGroup(g, {
      pc: [
        { x: 0, y: 0, w: 4, h: 2 },
        { x: 6, y: 1, w: 4, h: 2 },
        { x: 8, y: 4, w: 2, h: 3 },
      ],
      mobile: [{ x: 0, y: 0, w: 4, h: 4 }],
    });
    // pc: below the originals (y 3), then past the widget at rows 4-6 that the box would cover.
    expect(moved.map((w) => w.layout.pc)).toEqual([
      { x: 0, y: 7, w: 4, h: 2 },
      { x: 6, y: 8, w: 4, h: 2 },
    ]);
    expect(moved.map((w) => w.layout.mobile.y)).toEqual([4, 6]);
  });
  it('freeSpot moves a drop below what it would cover', () => {
    const others = [
      { x: 0, y: 0, w: 10, h: 4 },
      { x: 5, y: 4, w: 10, h: 3 },
    ];
    expect(freeSpot({ x: 2, y: 1, w: 6, h: 2 }, others)).toEqual({ x: 2, y: 7, w: 6, h: 2 });
    expect(freeSpot({ x: 20, y: 1, w: 6, h: 2 }, others)).toEqual({ x: 20, y: 1, w: 6, h: 2 });
  });
  it('freeSpot lands where stepping past every widget it covers would (random grids)', () => {
    const hit = (a: GridPos, b: GridPos) =>
      a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
    /** The rule spelled out: at each step, below the lowest bottom of everything covered. */
    const reference = (pos: GridPos, others: GridPos[]) => {
      let y = pos.y;
      for (;;) {
        const covered = others.filter((o) => hit({ ...pos, y }, o));
        if (!covered.length) return { ...pos, y };
        y = Math.max(...covered.map((o) => o.y + o.h));
      }
    };
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const box = (): GridPos => ({ x: rnd(20), y: rnd(40), w: 1 + rnd(8), h: 1 + rnd(5) });
    for (let round = 0; round < 300; round++) {
      const others = Array.from({ length: rnd(40) }, box);
      const pos = box();
      const spot = freeSpot(pos, others);
      expect(spot).toEqual(reference(pos, others));
      for (const o of others) expect(hit(spot, o)).toBe(false);
    }
  });
  it('nudge clamps inside the grid', () => {
    expect(nudge({ a: { x: 0, y: 0, w: 4, h: 1 } }, -1, -1, 120).a).toEqual({ x: 0, y: 0, w: 4, h: 1 });
    expect(nudge({ a: { x: 116, y: 0, w: 4, h: 1 } }, 1, 2, 120).a).toEqual({ x: 116, y: 2, w: 4, h: 1 });
  });
});

describe('undo grouping', () => {
  function setup() {
    const page = emptyPage();
    page.widgets = [instanceOf(text, 'a'), instanceOf(text, 'b', 6), instanceOf(text, 'c', 12)];
    page.widgets[0]!.layout.pc.x = 10;
    page.widgets[1]!.layout.pc.x = 30;
    const doc = docFromPage(page);
    const model = new DocModel(doc);
    useDesigner.getState().setModel(model, 'page1');
    return { doc, model, start: pageFromDoc(doc) };
  }

  it('a typing burst is one step', () => {
    const { doc, start } = setup();
    const st = useDesigner.getState();
    for (const s of ['H', 'He', 'Hel', 'Hell', 'Hello']) st.applyWidgetPatch('a', { props: { text: s } });
    expect(pageFromDoc(doc).widgets[0]!.props.text).toBe('Hello');
    st.undo();
    expect(pageFromDoc(doc)).toEqual(start);
  });

  it('discrete commands are separate steps, undone back to the start and redone', () => {
    const { doc, start } = setup();
    const st = useDesigner.getState();
    st.select(['a', 'b', 'c']);
    st.align('left');
    const aligned = pageFromDoc(doc);
    expect(aligned).not.toEqual(start);
    expect(aligned.widgets.map((w) => w.layout.pc.x)).toEqual([0, 0, 0]);
    st.select(['a']);
    st.duplicate();
    const duplicated = pageFromDoc(doc);
    expect(duplicated.widgets).toHaveLength(4);
    const [orig, copy] = [duplicated.widgets[0]!, duplicated.widgets[1]!];
    expect(copy.layout.pc.x).toBe(orig.layout.pc.x);
    expect(copy.layout.pc.y).toBeGreaterThanOrEqual(orig.layout.pc.y + orig.layout.pc.h);
    st.remove();
    expect(pageFromDoc(doc).widgets).toHaveLength(3);
    st.undo();
    expect(pageFromDoc(doc)).toEqual(duplicated);
    st.undo();
    expect(pageFromDoc(doc)).toEqual(aligned);
    st.undo();
    expect(pageFromDoc(doc)).toEqual(start);
    st.redo();
    expect(pageFromDoc(doc)).toEqual(aligned);
    st.redo();
    expect(pageFromDoc(doc)).toEqual(duplicated);
  });

  it('a duplicate of several widgets orders its copies as inserts that read the whole doc do', () => {
    const { doc, model, start } = setup();
    const st = useDesigner.getState();
    st.select(['a', 'b', 'c']);
    const copies = st.duplicate();
    // The same copies inserted again into a fresh doc, each insert reading its siblings from the doc.
    const ref = docFromPage(start);
    for (const [i, id] of ['a', 'b', 'c'].entries()) {
      const copy = { ...model.tree(copies[i]!)! };
      const at = ['a', 'b', 'c'].indexOf(id) + 1;
      insertWidgets(ref, [copy], null, at);
    }
    expect(pageFromDoc(doc).widgets.map((w) => w.id)).toEqual(pageFromDoc(ref).widgets.map((w) => w.id));
  });

  it('undo and redo bring back the selection of their step', () => {
    const { model } = setup();
    const st = useDesigner.getState();
    const sel = () => [...useDesigner.getState().selection].sort();
    st.select(['a']);
    const [copy] = st.duplicate();
    expect(sel()).toEqual([copy]);
    st.undo();
    // The copy is gone; the original it was made from is selected again.
    expect(model.has(copy!)).toBe(false);
    expect(sel()).toEqual(['a']);
    st.redo();
    expect(model.has(copy!)).toBe(true);
    expect(sel()).toEqual([copy]);
    // Undoing a delete selects what came back.
    st.select(['b', 'c']);
    st.remove();
    expect(sel()).toEqual([]);
    st.undo();
    expect(sel()).toEqual(['b', 'c']);
    // Nothing restored that no longer exists: the redo of the delete leaves no dangling selection.
    st.redo();
    expect(sel()).toEqual([]);
  });

  it('a change that adds many widgets marks them as a bulk addition; a few are not', () => {
    const { model } = setup();
    const st = useDesigner.getState();
    st.select(['a']);
    const [one] = st.duplicate();
    expect(model.addedInBulk(one!)).toBe(false);
    const many = Array.from({ length: BULK_ADD + 1 }, (_, i) => instanceOf(text, `bulk${i}`, 40 + i * 4));
    const ids = st.paste({ tag: CLIPBOARD_TAG, page: 'page1', widgets: many });
    expect(ids).toHaveLength(BULK_ADD + 1);
    for (const id of ids) expect(model.addedInBulk(id)).toBe(true);
    expect(model.addedInBulk('a')).toBe(false);
    // The next change starts afresh.
    st.select(['b']);
    st.remove();
    expect(ids.some((id) => model.addedInBulk(id))).toBe(false);
  });

  it('remote changes are not undone', () => {
    const { doc, model } = setup();
    const st = useDesigner.getState();
    st.applyWidgetPatch('a', { props: { text: 'mine' } });
    doc.transact(() => patchProps(doc, 'b', { text: 'theirs' }, 'remote'), 'remote');
    st.undo();
    expect(model.get('a')!.props.text).not.toBe('mine');
    expect(model.get('b')!.props.text).toBe('theirs');
  });

  it('paste of a copied group lands with new ids; cut removes', () => {
    const { doc } = setup();
    const st = useDesigner.getState();
    st.select(['a', 'b']);
    const data = st.copy()!;
    const ids = st.paste(data);
    expect(ids).toHaveLength(2);
    expect(pageFromDoc(doc).widgets).toHaveLength(5);
    const all = pageFromDoc(doc).widgets;
    const byId = (id: string) => all.find((w) => w.id === id)!;
    const [pa, pb] = [byId(ids[0]!), byId(ids[1]!)];
    const [a, b] = [byId('a'), byId('b')];
    // The copy keeps the group's shape (same offset between its widgets) ...
    for (const mode of ['pc', 'mobile'] as const) {
      expect(pb.layout[mode].x - pa.layout[mode].x).toBe(b.layout[mode].x - a.layout[mode].x);
      expect(pb.layout[mode].y - pa.layout[mode].y).toBe(b.layout[mode].y - a.layout[mode].y);
      expect(pa.layout[mode].x).toBe(a.layout[mode].x);
    }
    // ... and overlaps none of the widgets that were there.
    const hit = (p: GridPos, q: GridPos) =>
      p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h;
    for (const mode of ['pc', 'mobile'] as const)
      for (const c of [pa, pb])
        for (const o of all.filter((w) => !ids.includes(w.id)))
          expect(hit(c.layout[mode], o.layout[mode]), `${mode} ${c.id} over ${o.id}`).toBe(false);
    st.undo();
    expect(pageFromDoc(doc).widgets).toHaveLength(3);
    st.redo();
    expect(pageFromDoc(doc).widgets).toHaveLength(5);
    st.select(ids);
    st.cut();
    expect(pageFromDoc(doc).widgets).toHaveLength(3);
  });

  it('moving in mobile mode leaves the desktop position', () => {
    const { doc } = setup();
    const st = useDesigner.getState();
    const pc = pageFromDoc(doc).widgets[0]!.layout.pc;
    st.setMode('mobile');
    st.setLayouts({ a: { x: 0, y: 0, w: 10, h: 4 } });
    st.select(['a']);
    st.nudge(3, 1);
    const a = pageFromDoc(doc).widgets[0]!;
    expect(a.layout.pc).toEqual(pc);
    expect(a.layout.mobile).toMatchObject({ x: 3, y: 1 });
    st.setMode('pc');
  });

  it('moveTo puts a widget into another grid as one undo step, and refuses a move into itself', () => {
    const { doc, model, start } = setup();
    const st = useDesigner.getState();
    const box = instanceOf(block, 'box');
    box.children = [instanceOf(text, 'inner')];
    insertWidgets(doc, [box], null);
    const before = pageFromDoc(doc);
    expect(st.moveTo('a', 'box', { x: 3, y: 2, w: 10, h: 3 })).toBe(true);
    expect(model.get('a')!.parent).toBe('box');
    expect(model.children('box')).toEqual(['inner', 'a']);
    expect(model.get('a')!.layout.pc).toEqual({ x: 3, y: 2, w: 10, h: 3 });
    // Its mobile place in the new grid: below what is there.
    const inner = model.get('inner')!.layout.mobile;
    expect(model.get('a')!.layout.mobile.y).toBe(inner.y + inner.h);
    st.undo();
    expect(pageFromDoc(doc)).toEqual(before);
    st.redo();
    expect(model.get('a')!.parent).toBe('box');
    // Back out to the page.
    expect(st.moveTo('a', null, { x: 0, y: 40, w: 10, h: 3 })).toBe(true);
    expect(model.get('a')!.parent).toBeNull();
    // Into itself or its own content: nothing changes.
    const now = pageFromDoc(doc);
    expect(st.moveTo('box', 'box', { x: 0, y: 0, w: 4, h: 4 })).toBe(false);
    expect(st.moveTo('box', 'inner', { x: 0, y: 0, w: 4, h: 4 })).toBe(false);
    st.setField('b', 'locked', true);
    expect(st.moveTo('b', 'box', { x: 0, y: 0, w: 4, h: 4 })).toBe(false);
    st.undo();
    expect(pageFromDoc(doc)).toEqual(now);
    expect(start.widgets).toHaveLength(3);
  });

  it('a move into a container reaches a co-editor as a parent and order change', () => {
    const { doc } = setup();
    const box = instanceOf(block, 'box');
    insertWidgets(doc, [box], null);
    const peer = new Y.Doc();
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(doc));
    const theirs = new DocModel(peer);
    doc.on('update', (u: Uint8Array) => Y.applyUpdate(peer, u, 'remote'));
    expect(useDesigner.getState().moveTo('b', 'box', { x: 1, y: 1, w: 6, h: 3 })).toBe(true);
    expect(theirs.get('b')!.parent).toBe('box');
    expect(theirs.children('box')).toEqual(['b']);
    expect(theirs.children(null)).not.toContain('b');
    expect(theirs.get('b')!.layout.pc).toEqual({ x: 1, y: 1, w: 6, h: 3 });
    // The co-editor's view matches the page JSON on both sides.
    expect(pageFromDoc(peer)).toEqual(pageFromDoc(doc));
    useDesigner.getState().undo();
    expect(theirs.get('b')!.parent).toBeNull();
    expect(pageFromDoc(peer)).toEqual(pageFromDoc(doc));
  });

  it('zoom steps in and out and stays between 25 % and 200 %', () => {
    const st = useDesigner.getState();
    st.setZoom(1);
    st.zoomBy(1);
    expect(useDesigner.getState().zoom).toBe(1.1);
    st.zoomBy(-1);
    st.zoomBy(-1);
    expect(useDesigner.getState().zoom).toBe(0.9);
    expect(nextZoom(0.8, 1)).toBe(0.9);
    expect(nextZoom(0.8, -1)).toBe(0.75);
    expect(nextZoom(2, 1)).toBe(2);
    expect(nextZoom(0.25, -1)).toBe(0.25);
    st.setZoom(9);
    expect(useDesigner.getState().zoom).toBe(2);
    st.setZoom(Number.NaN);
    expect(useDesigner.getState().zoom).toBe(1);
  });

  it('a remote layout change updates only the touched widget view', () => {
    const { doc, model } = setup();
    const before = { a: model.get('a'), b: model.get('b') };
    setLayouts(doc, 'pc', { a: { x: 9, y: 9, w: 9, h: 9 } }, LOCAL_ORIGIN);
    expect(model.get('a')).not.toBe(before.a);
    expect(model.get('b')).toBe(before.b);
    expect(Y.encodeStateAsUpdate(doc).length).toBeGreaterThan(0);
  });
});
