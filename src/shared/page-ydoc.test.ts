import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { emptyPage, instanceOf, pageOfSize, pageWithEveryKind } from '../../tests/fixtures/pages.ts';
import { getWidget, WIDGETS } from '../../widgets/index.ts';
import {
  applyPageToDoc,
  childIndex,
  copyJson,
  docFromPage,
  insertWidgets,
  keyBetween,
  moveWidget,
  pageFromDoc,
  pageSettingsFromDoc,
  patchProps,
  removeWidgets,
  setLayouts,
  setWidgetField,
  spreadKeys,
  widgetsMap,
} from './page-ydoc.ts';

const text = getWidget('text')!;
const block = getWidget('block')!;

describe('copyJson', () => {
  it('copies JSON values deeply and keeps a __proto__ key as an own key', () => {
    const v = JSON.parse('{"a":[1,{"b":"x"}],"n":null,"__proto__":{"polluted":true},"t":true}');
    const c = copyJson(v);
    expect(c).toEqual(v);
    expect(c).not.toBe(v);
    expect(c.a).not.toBe(v.a);
    expect(c.a[1]).not.toBe(v.a[1]);
    expect(Object.hasOwn(c, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(c)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(copyJson('s')).toBe('s');
    expect(copyJson(3)).toBe(3);
    expect(copyJson(null)).toBe(null);
  });
});

describe('fractional keys', () => {
  it('keyBetween lies strictly between its bounds', () => {
    let lo: string | null = null;
    let hi: string | null = null;
    const keys: string[] = [];
    for (let i = 0; i < 200; i++) {
      const k: string = keyBetween(lo, hi);
      if (lo !== null) expect(k > lo).toBe(true);
      if (hi !== null) expect(k < hi).toBe(true);
      keys.push(k);
      if (i % 2) lo = k;
      else hi = k;
    }
    expect(new Set(keys).size).toBe(keys.length);
  });
  it('appending keeps order', () => {
    let k: string | null = null;
    for (let i = 0; i < 100; i++) {
      const n: string = keyBetween(k, null);
      if (k !== null) expect(n > k).toBe(true);
      k = n;
    }
  });
  it('spread keys are sorted, distinct, short and never end in 0', () => {
    const keys = spreadKeys(5000);
    expect([...keys].sort()).toEqual(keys);
    expect(new Set(keys).size).toBe(5000);
    expect(keys.every((k) => k.length <= 4 && !k.endsWith('0'))).toBe(true);
    expect(keyBetween(keys[0]!, keys[1]!) > keys[0]!).toBe(true);
  });
  it('rejects reversed bounds', () => {
    expect(() => keyBetween('b', 'a')).toThrow();
  });
});

describe('page <-> Y.Doc', () => {
  it('round-trips a page with every kind', () => {
    const page = pageWithEveryKind(WIDGETS);
    page.widgets[0]!.name = 'First';
    page.widgets[1]!.hidden = { $expr: 'state.count > 1' };
    page.widgets[2]!.locked = true;
    expect(pageFromDoc(docFromPage(page))).toEqual(page);
    const { widgets: _w, ...settings } = page;
    expect(pageSettingsFromDoc(docFromPage(page))).toEqual(settings);
  });
  it('round-trips through an encoded update (what the server stores)', () => {
    const page = pageWithEveryKind(WIDGETS);
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(docFromPage(page)));
    expect(pageFromDoc(copy)).toEqual(page);
  });
  it('round-trips a 1,000-widget page and an empty one', () => {
    const big = pageOfSize(WIDGETS, 1000);
    expect(pageFromDoc(docFromPage(big))).toEqual(big);
    expect(pageFromDoc(docFromPage(emptyPage()))).toEqual(emptyPage());
  });
  it('applyPageToDoc replaces earlier content', () => {
    const doc = docFromPage(pageWithEveryKind(WIDGETS));
    const page = emptyPage('other');
    page.widgets = [instanceOf(text, 'a')];
    applyPageToDoc(doc, page);
    expect(pageFromDoc(doc)).toEqual(page);
  });
});

describe('mutations', () => {
  function sample() {
    const page = emptyPage();
    const b = instanceOf(block, 'b');
    b.children = [instanceOf(text, 'b1'), instanceOf(text, 'b2')];
    page.widgets = [instanceOf(text, 'a'), b, instanceOf(text, 'c')];
    return docFromPage(page);
  }
  const ids = (doc: Y.Doc, parent: string | null) => childIndex(doc).get(parent) ?? [];

  it('inserts at an index and at the end', () => {
    const doc = sample();
    insertWidgets(doc, [instanceOf(text, 'x'), instanceOf(text, 'y')], null, 1);
    insertWidgets(doc, [instanceOf(text, 'z')], 'b');
    expect(ids(doc, null)).toEqual(['a', 'x', 'y', 'b', 'c']);
    expect(ids(doc, 'b')).toEqual(['b1', 'b2', 'z']);
  });
  it('inserts as it would with the siblings it is given, at every index and under every parent', () => {
    for (const parent of [null, 'b', 'gone'] as const)
      for (let at = 0; at <= 4; at++) {
        const read = sample();
        const given = sample();
        insertWidgets(read, [instanceOf(text, 'x'), instanceOf(text, 'y')], parent, at);
        const sibs = [...(childIndex(given).get(parent) ?? [])];
        insertWidgets(given, [instanceOf(text, 'x'), instanceOf(text, 'y')], parent, at, undefined, sibs);
        expect(pageFromDoc(given)).toEqual(pageFromDoc(read));
        const order = (doc: Y.Doc) =>
          [...widgetsMap(doc).entries()].map(([id, m]) => `${id}:${String(m.get('order'))}`).sort();
        expect(order(given)).toEqual(order(read));
      }
  });
  it('moves into and out of containers, refusing cycles', () => {
    const doc = sample();
    expect(moveWidget(doc, 'a', 'b', 1)).toBe(true);
    expect(ids(doc, 'b')).toEqual(['b1', 'a', 'b2']);
    expect(moveWidget(doc, 'b2', null, 0)).toBe(true);
    expect(ids(doc, null)).toEqual(['b2', 'b', 'c']);
    expect(moveWidget(doc, 'b', 'b')).toBe(false);
    const page = pageFromDoc(doc);
    expect(page.widgets.map((w) => w.id)).toEqual(['b2', 'b', 'c']);
    expect(page.widgets[1]!.children!.map((w) => w.id)).toEqual(['b1', 'a']);
  });
  it('removes a container with its children', () => {
    const doc = sample();
    removeWidgets(doc, ['b']);
    expect([...doc.getMap('widgets').keys()].sort()).toEqual(['a', 'c']);
  });
  it('patches props (undefined deletes) and fields', () => {
    const doc = sample();
    patchProps(doc, 'a', { text: 'new', align: undefined });
    setWidgetField(doc, 'a', 'name', 'Title');
    setWidgetField(doc, 'a', 'locked', true);
    setWidgetField(doc, 'a', 'locked', false);
    const a = pageFromDoc(doc).widgets[0]!;
    expect(a.props.text).toBe('new');
    expect('align' in a.props).toBe(false);
    expect(a.name).toBe('Title');
    expect(a.locked).toBeUndefined();
  });
  it('sets one mode layout without touching the other', () => {
    const doc = sample();
    const before = pageFromDoc(doc).widgets[0]!.layout;
    setLayouts(doc, 'mobile', { a: { x: 3, y: 7, w: 10, h: 2 } });
    const after = pageFromDoc(doc).widgets[0]!.layout;
    expect(after.mobile).toEqual({ x: 3, y: 7, w: 10, h: 2 });
    expect(after.pc).toEqual(before.pc);
  });
  it('concurrent moves into each other leave no widget lost', () => {
    const d1 = sample();
    const d2 = new Y.Doc();
    Y.applyUpdate(d2, Y.encodeStateAsUpdate(d1));
    insertWidgets(d1, [{ ...instanceOf(block, 'k'), children: [] }], null);
    Y.applyUpdate(d2, Y.encodeStateAsUpdate(d1));
    moveWidget(d1, 'b', 'k');
    moveWidget(d2, 'k', 'b');
    Y.applyUpdate(d1, Y.encodeStateAsUpdate(d2));
    Y.applyUpdate(d2, Y.encodeStateAsUpdate(d1));
    const count = (ws: { children?: unknown[] }[]): number =>
      ws.reduce((n, w) => n + 1 + count((w.children ?? []) as { children?: unknown[] }[]), 0);
    expect(count(pageFromDoc(d1).widgets)).toBe(6);
    expect(pageFromDoc(d1)).toEqual(pageFromDoc(d2));
  });
});
