/**
 * The page document as a Y.Doc, for the designer and (later) co-editing on the server. Pure yjs: no
 * DOM, no React, no registry.
 *
 * Shape:
 * - root Y.Map `page`: id, title, version, layout, state, dataSources, setup, events (plain JSON values)
 * - root Y.Map `widgets`: id → Y.Map { kind, version, name?, parent (id | null), order (fractional
 *   index string among siblings), container (the instance had a `children` array), props: Y.Map
 *   (one entry per prop), layout: Y.Map { pc, mobile }, events?, hidden?, locked?, broken?, brokenReason? }
 *
 * A flat map with parent + order keeps moves and re-parenting safe under concurrent edits (a widget
 * is never copied between arrays) and makes look-ups by id O(1). Siblings sort by order, then id.
 */
import * as Y from 'yjs';
import type { GridPos, PageDocument, WidgetInstance } from './page-document.ts';

export type Mode = 'pc' | 'mobile';
type Json = Record<string, unknown>;

/** Origin of edits made by this user in this tab; the undo manager tracks only these. */
export const LOCAL_ORIGIN = 'designer-local';

const PAGE_KEYS = [
  'id',
  'title',
  'version',
  'layout',
  'state',
  'dataSources',
  'setup',
  'events',
  '_option',
] as const;
const OPTIONAL_FIELDS = ['name', 'events', 'hidden', 'locked', 'broken', 'brokenReason'] as const;

/**
 * A deep copy of a JSON value (what page documents hold). structuredClone pays a serialisation per
 * call even for a string or a number: one call per prop of every widget was a tenth of the time to
 * build the doc of a 1,000-widget page. A `__proto__` key stays an own key, as JSON.parse makes it.
 */
export function copyJson<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(copyJson) as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = copyJson((v as Record<string, unknown>)[k]);
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
    else out[k] = x;
  }
  return out as T;
}

// ---------------------------------------------------------------------------------------------------
// Fractional indexing: keys over base-62 digits compare as strings; a key never ends in '0', so there
// is always room between two keys.
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function midpoint(a: string, b: string | null): string {
  if (b !== null) {
    let n = 0;
    while ((a[n] ?? '0') === b[n]) n++;
    if (n > 0) return b.slice(0, n) + midpoint(a.slice(n), b.slice(n));
  }
  const da = a ? DIGITS.indexOf(a[0]!) : 0;
  const db = b !== null ? DIGITS.indexOf(b[0]!) : DIGITS.length;
  if (db - da > 1) return DIGITS[Math.round((da + db) / 2)]!;
  if (b !== null && b.length > 1) return b.slice(0, 1);
  return DIGITS[da]! + midpoint(a.slice(1), null);
}

/** A key strictly between a and b (null = open end). */
export function keyBetween(a: string | null, b: string | null): string {
  if (a !== null && b !== null && a >= b) throw new Error(`keyBetween: ${a} >= ${b}`);
  return midpoint(a ?? '', b);
}

/** n increasing keys of equal length, spread out, for bulk loading. */
export function spreadKeys(n: number): string[] {
  let width = 1;
  while (62 ** width <= n + 1) width++;
  const out: string[] = [];
  for (let i = 1; i <= n; i++) {
    let v = i;
    let s = '';
    for (let k = 0; k < width; k++) {
      s = DIGITS[v % 62]! + s;
      v = Math.floor(v / 62);
    }
    out.push(`${s}V`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------

export function pageMap(doc: Y.Doc): Y.Map<unknown> {
  return doc.getMap('page');
}

export function widgetsMap(doc: Y.Doc): Y.Map<Y.Map<unknown>> {
  return doc.getMap('widgets');
}

function widgetToY(w: WidgetInstance, parent: string | null, order: string): Y.Map<unknown> {
  const m = new Y.Map<unknown>();
  m.set('kind', w.kind);
  m.set('version', w.version);
  m.set('parent', parent);
  m.set('order', order);
  if (w.children) m.set('container', true);
  const props = new Y.Map<unknown>();
  for (const [k, v] of Object.entries(w.props)) if (v !== undefined) props.set(k, copyJson(v));
  m.set('props', props);
  const layout = new Y.Map<unknown>();
  layout.set('pc', { ...w.layout.pc });
  layout.set('mobile', { ...w.layout.mobile });
  m.set('layout', layout);
  for (const k of OPTIONAL_FIELDS) if (w[k] !== undefined) m.set(k, copyJson(w[k] as unknown as Json));
  return m;
}

/** Adds a widget and its descendants (children get fresh sibling keys). */
function addTree(map: Y.Map<Y.Map<unknown>>, w: WidgetInstance, parent: string | null, order: string) {
  map.set(w.id, widgetToY(w, parent, order));
  const kids = w.children ?? [];
  const keys = spreadKeys(kids.length);
  kids.forEach((c, i) => {
    addTree(map, c, w.id, keys[i]!);
  });
}

/** Replaces the doc's content with a page (one transaction). */
export function applyPageToDoc(doc: Y.Doc, page: PageDocument, origin: unknown = null): void {
  doc.transact(() => {
    const pm = pageMap(doc);
    for (const k of [...pm.keys()]) pm.delete(k);
    for (const k of PAGE_KEYS) if (page[k] !== undefined) pm.set(k, copyJson(page[k] as unknown as Json));
    const wm = widgetsMap(doc);
    for (const k of [...wm.keys()]) wm.delete(k);
    const keys = spreadKeys(page.widgets.length);
    page.widgets.forEach((w, i) => {
      addTree(wm, w, null, keys[i]!);
    });
  }, origin);
}

export function docFromPage(page: PageDocument): Y.Doc {
  const doc = new Y.Doc();
  applyPageToDoc(doc, page);
  return doc;
}

/** Sort helper: by order key, then id (two users may pick the same key). */
export function bySiblingOrder(a: { order: string; id: string }, b: { order: string; id: string }): number {
  return a.order < b.order ? -1 : a.order > b.order ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Children ids of every parent (null = page root), ordered. */
export function childIndex(doc: Y.Doc): Map<string | null, string[]> {
  const groups = new Map<string | null, { id: string; order: string }[]>();
  const wm = widgetsMap(doc);
  for (const [id, m] of wm.entries()) {
    let parent = (m.get('parent') as string | null) ?? null;
    // An orphan (its parent removed concurrently) shows at the root rather than vanishing.
    if (parent !== null && !wm.has(parent)) parent = null;
    let list = groups.get(parent);
    if (!list) {
      list = [];
      groups.set(parent, list);
    }
    list.push({ id, order: String(m.get('order') ?? '') });
  }
  const out = new Map<string | null, string[]>();
  for (const [p, list] of groups)
    out.set(
      p,
      list.sort(bySiblingOrder).map((x) => x.id),
    );
  return out;
}

/** One widget (without children) as plain JSON. */
export function widgetFromY(id: string, m: Y.Map<unknown>): WidgetInstance {
  const props = m.get('props') as Y.Map<unknown> | undefined;
  const layout = m.get('layout') as Y.Map<unknown> | undefined;
  const w: WidgetInstance = {
    id,
    kind: m.get('kind') as string,
    version: m.get('version') as number,
    props: props ? (props.toJSON() as Json) : {},
    layout: {
      pc: { ...((layout?.get('pc') as GridPos) ?? { x: 0, y: 0, w: 1, h: 1 }) },
      mobile: { ...((layout?.get('mobile') as GridPos) ?? { x: 0, y: 0, w: 1, h: 1 }) },
    },
  };
  for (const k of OPTIONAL_FIELDS) {
    const v = m.get(k);
    if (v !== undefined) (w as unknown as Json)[k] = copyJson(v);
  }
  return w;
}

/** The page as JSON: children nested, siblings in order. */
export function pageFromDoc(doc: Y.Doc): PageDocument {
  const wm = widgetsMap(doc);
  const index = childIndex(doc);
  const build = (id: string, seen: Set<string>): WidgetInstance => {
    const m = wm.get(id)!;
    const w = widgetFromY(id, m);
    seen.add(id);
    const kids = (index.get(id) ?? []).filter((k) => !seen.has(k));
    if (m.get('container') === true || kids.length) w.children = kids.map((k) => build(k, seen));
    return w;
  };
  const seen = new Set<string>();
  const widgets = (index.get(null) ?? []).map((id) => build(id, seen));
  // A parent cycle (two concurrent re-parentings) leaves widgets unreachable: show them at the root.
  for (const id of [...wm.keys()].sort()) if (!seen.has(id)) widgets.push(build(id, seen));
  const { id, title, version, layout, ...rest } = pageSettingsFromDoc(doc);
  return { id, title, version, layout, widgets, ...rest };
}

/** The page's own settings as JSON (what pageFromDoc gives, without reading the widgets). */
export function pageSettingsFromDoc(doc: Y.Doc): Omit<PageDocument, 'widgets'> {
  const pm = pageMap(doc);
  const page: Omit<PageDocument, 'widgets'> = {
    id: String(pm.get('id') ?? 'page'),
    title: String(pm.get('title') ?? 'Untitled'),
    version: (pm.get('version') as number) ?? 1,
    layout: copyJson((pm.get('layout') as PageDocument['layout']) ?? { pc: {}, mobile: {} }),
  };
  for (const k of ['state', 'dataSources', 'setup', 'events', '_option'] as const) {
    const v = pm.get(k);
    if (v !== undefined) (page as unknown as Json)[k] = copyJson(v);
  }
  return page;
}

// ---------------------------------------------------------------------------------------------------
// Mutation helpers. Each runs in one transaction with the given origin.

export function getWidgetY(doc: Y.Doc, id: string): Y.Map<unknown> | undefined {
  return widgetsMap(doc).get(id);
}

/** Ids of a widget's descendants (depth first, without the widget). */
export function descendants(doc: Y.Doc, id: string, index = childIndex(doc)): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    for (const c of index.get(p) ?? []) {
      if (out.includes(c)) continue;
      out.push(c);
      walk(c);
    }
  };
  walk(id);
  return out;
}

/** The order key for a new sibling at `index` among parent's children (undefined = at the end). */
export function orderAt(
  doc: Y.Doc,
  parent: string | null,
  index?: number,
  excluding?: string,
  idx = childIndex(doc),
): string {
  const wm = widgetsMap(doc);
  const sibs = (idx.get(parent) ?? []).filter((s) => s !== excluding);
  const at = index === undefined ? sibs.length : Math.max(0, Math.min(index, sibs.length));
  const before = at > 0 ? String(wm.get(sibs[at - 1]!)!.get('order')) : null;
  const after = at < sibs.length ? String(wm.get(sibs[at]!)!.get('order')) : null;
  if (before !== null && after !== null && before >= after) return keyBetween(before, null);
  return keyBetween(before, after);
}

/**
 * Inserts widget trees under a parent, starting at index (undefined = at the end). `siblings`: the
 * parent's children in order as they stand now (what childIndex would give), when the caller keeps
 * them; else they are worked out from the whole doc (a read of every widget's parent and order).
 */
export function insertWidgets(
  doc: Y.Doc,
  widgets: WidgetInstance[],
  parent: string | null,
  index?: number,
  origin: unknown = LOCAL_ORIGIN,
  siblings?: readonly string[],
): void {
  doc.transact(() => {
    const wm = widgetsMap(doc);
    const sibs = siblings ?? childIndex(doc).get(parent) ?? [];
    const at = index === undefined ? sibs.length : Math.max(0, Math.min(index, sibs.length));
    let before = at > 0 ? String(wm.get(sibs[at - 1]!)!.get('order')) : null;
    const after = at < sibs.length ? String(wm.get(sibs[at]!)!.get('order')) : null;
    for (const w of widgets) {
      const key =
        before !== null && after !== null && before < after
          ? keyBetween(before, after)
          : keyBetween(before, null);
      addTree(wm, w, parent, key);
      before = key;
    }
  }, origin);
}

/** Removes widgets and everything inside them. */
export function removeWidgets(doc: Y.Doc, ids: string[], origin: unknown = LOCAL_ORIGIN): void {
  doc.transact(() => {
    const wm = widgetsMap(doc);
    const idx = childIndex(doc);
    for (const id of ids) {
      if (!wm.has(id)) continue;
      for (const d of descendants(doc, id, idx)) wm.delete(d);
      wm.delete(id);
    }
  }, origin);
}

/**
 * Moves a widget under a new parent at index among its new siblings. Refuses (returns false) to put
 * a widget inside itself or a descendant.
 */
export function moveWidget(
  doc: Y.Doc,
  id: string,
  parent: string | null,
  index?: number,
  origin: unknown = LOCAL_ORIGIN,
): boolean {
  const m = getWidgetY(doc, id);
  if (!m) return false;
  const idx = childIndex(doc);
  if (parent !== null && (parent === id || descendants(doc, id, idx).includes(parent))) return false;
  doc.transact(() => {
    m.set('parent', parent);
    m.set('order', orderAt(doc, parent, index, id, idx));
  }, origin);
  return true;
}

/** Shallow-merges props; a key set to undefined is deleted. */
export function patchProps(
  doc: Y.Doc,
  id: string,
  patch: Record<string, unknown>,
  origin: unknown = LOCAL_ORIGIN,
): void {
  const m = getWidgetY(doc, id);
  if (!m) return;
  doc.transact(() => {
    const props = m.get('props') as Y.Map<unknown>;
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) props.delete(k);
      else props.set(k, copyJson(v));
    }
  }, origin);
}

/** Sets or deletes (undefined) one top-level field: name, events, hidden, locked. */
export function setWidgetField(
  doc: Y.Doc,
  id: string,
  key: 'name' | 'events' | 'hidden' | 'locked',
  value: unknown,
  origin: unknown = LOCAL_ORIGIN,
): void {
  const m = getWidgetY(doc, id);
  if (!m) return;
  doc.transact(() => {
    if (value === undefined || value === false) m.delete(key);
    else m.set(key, copyJson(value));
  }, origin);
}

/** Sets the layouts of one mode for several widgets at once. */
export function setLayouts(
  doc: Y.Doc,
  mode: Mode,
  positions: Record<string, GridPos>,
  origin: unknown = LOCAL_ORIGIN,
): void {
  doc.transact(() => {
    for (const [id, pos] of Object.entries(positions)) {
      const layout = getWidgetY(doc, id)?.get('layout') as Y.Map<unknown> | undefined;
      if (!layout) continue;
      const old = layout.get(mode) as GridPos | undefined;
      if (old && old.x === pos.x && old.y === pos.y && old.w === pos.w && old.h === pos.h) continue;
      layout.set(mode, { x: pos.x, y: pos.y, w: pos.w, h: pos.h });
    }
  }, origin);
}

/** Sets a page-level key (title, state, dataSources, setup, events, layout); undefined deletes. */
export function setPageField(
  doc: Y.Doc,
  key: (typeof PAGE_KEYS)[number],
  value: unknown,
  origin: unknown = LOCAL_ORIGIN,
): void {
  doc.transact(() => {
    if (value === undefined) pageMap(doc).delete(key);
    else pageMap(doc).set(key, copyJson(value));
  }, origin);
}
