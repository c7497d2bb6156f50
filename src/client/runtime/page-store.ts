/**
 * The state of one rendered page: page state variables (with their persistence), widget values and
 * the rows of data-bound widgets and page data sources. One zustand store per rendered page, so a
 * modal's page has its own. Widgets subscribe to the slices their bindings read (see PageRenderer).
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { WidgetData, WidgetView } from '../../../widgets/kit/widget-context.ts';
import type { PageDocument } from '../../shared/page-document.ts';

export type Persist = 'none' | 'session' | 'local';

export interface PageStoreState {
  state: Record<string, unknown>;
  values: Record<string, unknown>;
  data: Record<string, WidgetData>;
  /** Bumped by refreshWidget: a data widget reloads when its number changes. */
  reload: Record<string, number>;
  /** The page a paged data widget shows (set by its pager through the runtime's `setPage`). */
  pages: Record<string, { index: number; size: number }>;
  /** How a data widget's rows are sorted, searched and filtered by the user. */
  views: Record<string, WidgetView>;
}

export type PageStore = StoreApi<PageStoreState>;

const storageKey = (pageId: string, name: string) => `lc_state:${pageId}:${name}`;

function storageOf(persist: Persist): Storage | undefined {
  try {
    if (persist === 'local') return globalThis.localStorage;
    if (persist === 'session') return globalThis.sessionStorage;
  } catch {
    // Storage refused (private mode): the value lives for this page only.
  }
  return undefined;
}

/** Initial page state: each variable's stored value when persisted, else its default. */
export function initialState(doc: PageDocument): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(doc.state ?? {})) {
    out[name] = structuredClone(v.default ?? null);
    const store = storageOf((v.persist as Persist | undefined) ?? 'none');
    const raw = store?.getItem(storageKey(doc.id, name));
    if (raw != null) {
      try {
        out[name] = JSON.parse(raw);
      } catch {
        // A damaged stored value falls back to the default.
      }
    }
  }
  return out;
}

export function createPageStore(doc: PageDocument): PageStore {
  const store = createStore<PageStoreState>()(() => ({
    state: initialState(doc),
    values: {},
    data: {},
    reload: {},
    pages: {},
    views: {},
  }));
  // Persist state variables that ask for it whenever they change.
  const persisted = Object.entries(doc.state ?? {}).filter(([, v]) => (v.persist ?? 'none') !== 'none');
  if (persisted.length) {
    store.subscribe((next, prev) => {
      if (next.state === prev.state) return;
      for (const [name, v] of persisted) {
        if (next.state[name] === prev.state[name]) continue;
        try {
          storageOf(v.persist as Persist)?.setItem(
            storageKey(doc.id, name),
            JSON.stringify(next.state[name]),
          );
        } catch {
          // Quota or refused storage: keep the value in memory only.
        }
      }
    });
  }
  return store;
}

export function setStateVar(store: PageStore, name: string, value: unknown): void {
  store.setState((s) => ({ state: { ...s.state, [name]: value } }));
}

export function setWidgetValue(store: PageStore, id: string, value: unknown): void {
  store.setState((s) => ({ values: { ...s.values, [id]: value } }));
}

export function setWidgetData(store: PageStore, id: string, data: WidgetData): void {
  store.setState((s) => ({ data: { ...s.data, [id]: data } }));
}

export function setWidgetPage(store: PageStore, id: string, page: { index: number; size: number }): void {
  store.setState((s) => ({ pages: { ...s.pages, [id]: { index: page.index, size: page.size } } }));
}

/** A new sort, search or filter of a data widget: its rows start again from the first page. */
export function setWidgetView(store: PageStore, id: string, view: WidgetView): void {
  store.setState((s) => {
    const page = s.pages[id];
    return {
      views: { ...s.views, [id]: view },
      pages: page ? { ...s.pages, [id]: { ...page, index: 1 } } : s.pages,
    };
  });
}

export function bumpReload(store: PageStore, id: string): void {
  store.setState((s) => ({ reload: { ...s.reload, [id]: (s.reload[id] ?? 0) + 1 } }));
}

/** What expressions see as `widgets`: a widget's value, else its data as { rows, total }. */
export function widgetsScope(s: PageStoreState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [id, d] of Object.entries(s.data))
    out[id] = { rows: d.rows, total: d.meta.total ?? d.rows.length };
  for (const [id, v] of Object.entries(s.values)) out[id] = v;
  return out;
}
