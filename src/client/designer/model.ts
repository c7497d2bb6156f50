/**
 * Derived views of the page Y.Doc for the designer: one frozen object per widget (rebuilt only when
 * that widget changes) and one ordered child list per parent. Components subscribe to one widget or
 * one parent, so an edit re-renders only what it touched — the key to staying fast at 1,000 widgets.
 */
import * as Y from 'yjs';
import type { PageDocument, WidgetInstance } from '../../shared/page-document.ts';
import {
  bySiblingOrder,
  LOCAL_ORIGIN,
  pageFromDoc,
  pageMap,
  pageSettingsFromDoc,
  widgetFromY,
  widgetsMap,
} from '../../shared/page-ydoc.ts';

export interface WidgetView extends WidgetInstance {
  parent: string | null;
  order: string;
  container: boolean;
}

type Listener = () => void;
const ROOT = '\u0000root';
const pkey = (p: string | null) => (p === null ? ROOT : p);

export class DocModel {
  readonly doc: Y.Doc;
  readonly undo: Y.UndoManager;
  private views = new Map<string, WidgetView>();
  private kids = new Map<string, string[]>();
  private widgetListeners = new Map<string, Set<Listener>>();
  private childListeners = new Map<string, Set<Listener>>();
  private anyListeners = new Set<Listener>();
  private pageListeners = new Set<Listener>();
  private pageVersion = 0;
  /** Bumped on any change of the widgets; lets whole-page views (layers) memoise. */
  revision = 0;
  /** The widgets the last change added, when it added more than BULK_ADD of them (else empty). */
  private bulk: ReadonlySet<string> = EMPTY_SET;

  constructor(doc: Y.Doc) {
    this.doc = doc;
    const wm = widgetsMap(doc);
    for (const [id, m] of wm.entries()) this.views.set(id, this.viewOf(id, m));
    this.reindexAll();
    wm.observeDeep((events) => this.onWidgets(events));
    pageMap(doc).observe(() => {
      this.pageVersion++;
      for (const l of this.pageListeners) l();
    });
    this.undo = new Y.UndoManager([wm, pageMap(doc)], {
      trackedOrigins: new Set([LOCAL_ORIGIN]),
      captureTimeout: 500,
    });
  }

  private viewOf(id: string, m: Y.Map<unknown>, old?: WidgetView): WidgetView {
    const w = widgetFromY(id, m) as WidgetView;
    w.parent = (m.get('parent') as string | null) ?? null;
    w.order = String(m.get('order') ?? '');
    w.container = m.get('container') === true;
    // A move or resize keeps the props object, so what renders props only (the widget's body on the
    // canvas, the panel) can skip the change.
    if (old && JSON.stringify(old.props) === JSON.stringify(w.props)) w.props = old.props;
    return Object.freeze(w);
  }

  private effectiveParent(v: WidgetView): string | null {
    return v.parent !== null && this.views.has(v.parent) ? v.parent : null;
  }

  private reindexAll() {
    const groups = new Map<string, WidgetView[]>();
    for (const v of this.views.values()) {
      const k = pkey(this.effectiveParent(v));
      let g = groups.get(k);
      if (!g) {
        g = [];
        groups.set(k, g);
      }
      g.push(v);
    }
    this.kids.clear();
    for (const [k, g] of groups)
      this.kids.set(
        k,
        g.sort(bySiblingOrder).map((v) => v.id),
      );
  }

  private reindex(parents: Set<string>) {
    if (parents.size > 8) {
      this.reindexAll();
      return;
    }
    const groups = new Map<string, WidgetView[]>();
    for (const p of parents) groups.set(p, []);
    for (const v of this.views.values()) groups.get(pkey(this.effectiveParent(v)))?.push(v);
    for (const [k, g] of groups) {
      if (g.length)
        this.kids.set(
          k,
          g.sort(bySiblingOrder).map((v) => v.id),
        );
      else this.kids.delete(k);
    }
  }

  private onWidgets(events: Y.YEvent<Y.AbstractType<unknown>>[]) {
    const wm = widgetsMap(this.doc);
    const touched = new Set<string>();
    const parents = new Set<string>();
    for (const e of events) {
      if (e.target === wm) {
        for (const [id, change] of e.changes.keys) {
          touched.add(id);
          const old = this.views.get(id);
          if (old) parents.add(pkey(this.effectiveParent(old)));
          if (change.action === 'delete') parents.add(id);
        }
      } else {
        const id = e.path[0] as string;
        touched.add(id);
        if (e.path.length === 0 || e.target.parent === wm) {
          // A change of the widget's own map: parent or order moves it between lists.
          const keys = (e as Y.YMapEvent<unknown>).keysChanged;
          if (keys?.has('parent') || keys?.has('order')) {
            const old = this.views.get(id);
            if (old) parents.add(pkey(this.effectiveParent(old)));
          }
        }
      }
    }
    const added = new Set<string>();
    for (const id of touched) {
      const m = wm.get(id);
      const old = this.views.get(id);
      if (m && !old) added.add(id);
      if (m) {
        const v = this.viewOf(id, m, old);
        this.views.set(id, v);
        if (!old || old.parent !== v.parent || old.order !== v.order)
          parents.add(pkey(this.effectiveParent(v)));
      } else this.views.delete(id);
    }
    if (parents.size) this.reindex(parents);
    this.bulk = added.size > BULK_ADD ? added : EMPTY_SET;
    this.revision++;
    for (const id of touched) for (const l of this.widgetListeners.get(id) ?? []) l();
    for (const p of parents) for (const l of this.childListeners.get(p) ?? []) l();
    for (const l of this.anyListeners) l();
  }

  get(id: string): WidgetView | undefined {
    return this.views.get(id);
  }

  has(id: string): boolean {
    return this.views.has(id);
  }

  /**
   * Whether the widget came with the last change as one of many (a pasted group, an undone delete of
   * a group): the canvas draws such views in an interruptible transition, boxes first.
   */
  addedInBulk(id: string): boolean {
    return this.bulk.has(id);
  }

  size(): number {
    return this.views.size;
  }

  /** Every widget's view (any order). */
  list(): WidgetView[] {
    return [...this.views.values()];
  }

  children(parent: string | null): readonly string[] {
    return this.kids.get(pkey(parent)) ?? EMPTY;
  }

  /** Ancestors from the parent up to the root. */
  ancestors(id: string): string[] {
    const out: string[] = [];
    let p = this.views.get(id)?.parent ?? null;
    while (p !== null && this.views.has(p) && !out.includes(p)) {
      out.push(p);
      p = this.views.get(p)!.parent;
    }
    return out;
  }

  /** A widget with its nested children, as page JSON. */
  tree(id: string): WidgetInstance | undefined {
    const v = this.views.get(id);
    if (!v) return undefined;
    const { parent: _p, order: _o, container, ...w } = v;
    const kids = this.children(id);
    const out: WidgetInstance = structuredClone(w);
    if (container || kids.length) out.children = kids.map((k) => this.tree(k)!).filter(Boolean);
    return out;
  }

  page(): PageDocument {
    return pageFromDoc(this.doc);
  }

  /** The page's own settings (title, layout, state, data sources, events, setup), without the widgets. */
  pageSettings(): Omit<PageDocument, 'widgets'> {
    return pageSettingsFromDoc(this.doc);
  }

  pageField<T>(key: string): T | undefined {
    return pageMap(this.doc).get(key) as T | undefined;
  }

  subscribeWidget(id: string, l: Listener): () => void {
    return add(this.widgetListeners, id, l);
  }

  subscribeChildren(parent: string | null, l: Listener): () => void {
    return add(this.childListeners, pkey(parent), l);
  }

  subscribeAny(l: Listener): () => void {
    this.anyListeners.add(l);
    return () => this.anyListeners.delete(l);
  }

  subscribePage(l: Listener): () => void {
    this.pageListeners.add(l);
    return () => this.pageListeners.delete(l);
  }

  getPageVersion(): number {
    return this.pageVersion;
  }

  destroy() {
    this.undo.destroy();
  }
}

const EMPTY: readonly string[] = Object.freeze([]);
const EMPTY_SET: ReadonlySet<string> = new Set();
/** More widgets than this added by one change is a bulk addition (see addedInBulk). */
export const BULK_ADD = 8;

function add(map: Map<string, Set<Listener>>, key: string, l: Listener): () => void {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(l);
  return () => {
    set.delete(l);
  };
}
