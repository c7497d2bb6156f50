/**
 * The page renderer: a published (or draft) page document laid out from its per-mode grid positions,
 * each widget drawn by its kind's lazily loaded render with its bindings resolved, events running
 * their actions, data-bound widgets reading through the end-user data API.
 *
 * Geometry is the designer's (react-grid-layout numbers): x, y, w, h in grid units; `cols` columns
 * across the canvas and rows of `rowHeight` px. Columns are laid out in percent of the canvas (pc:
 * the available width up to the page's width; mobile: the phone width), rows in px.
 *
 * Speed at 200+ widgets: the context value is stable; each widget subscribes only to the store
 * slices its bindings read (state, widgets) plus its own data, and resolves its props in a memo on
 * exactly those — typing into one widget re-renders the widgets that read it, not the page.
 */
import { Alert, Spin } from 'antd';
import {
  Component,
  type CSSProperties,
  createContext,
  type ErrorInfo,
  type ReactNode,
  Suspense,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { WidgetRenderProps } from '../../../widgets/define.ts';
import {
  useRuntime,
  type WidgetData,
  type WidgetEvent,
  type WidgetRuntime,
  WidgetRuntimeProvider,
} from '../../../widgets/kit/widget-context.ts';
import { getWidget } from '../../../widgets/registry.ts';
import { type ExprScope, isBinding, resolveValue } from '../../shared/expr/index.ts';
import type { GridPos, PageDocument, WidgetInstance } from '../../shared/page-document.ts';
import { str } from '../../shared/props.ts';
import { type ActionHost, runActions } from './actions.ts';
import {
  entityMeta,
  loadWidgetData,
  onEntityChanged,
  queryEntity,
  sameEntity,
  saveRecord,
  widgetQuery,
} from './data-source.ts';
import { FormDrafts } from './FormDrafts.tsx';
import { isLiveWidget, type RecordsChange, useLivePage } from './live.ts';
import { notify } from './notices.ts';
import { kindsOf } from './page-prefetch.ts';
import {
  bumpReload,
  createPageStore,
  type PageStore,
  type PageStoreState,
  setWidgetData,
  widgetsScope,
} from './page-store.ts';

export type PageMode = 'pc' | 'mobile';

export interface RendererContext {
  project: string;
  doc: PageDocument;
  mode: PageMode;
  store: PageStore;
  params: Record<string, unknown>;
  user: unknown;
  runtimeMode: 'runtime' | 'preview';
}

const PageCtx = createContext<RendererContext | null>(null);

export function usePageContext(): RendererContext {
  const ctx = useContext(PageCtx);
  if (!ctx) throw new Error('usePageContext outside a PageRenderer');
  return ctx;
}

const EMPTY_DATA: WidgetData = { rows: [], meta: {}, loading: false };
const ROOTS = ['user', 'params', 'state', 'widgets', 'record'] as const;
type Root = (typeof ROOTS)[number];

/** The scope roots a value's bindings and `{{ }}` templates mention (a cheap over-approximation). */
export function rootsOf(v: unknown, into: Set<Root> = new Set()): Set<Root> {
  let src: string | undefined;
  if (isBinding(v)) src = v.$expr;
  else if (typeof v === 'string' && v.includes('{{')) src = v;
  if (src !== undefined) {
    for (const r of ROOTS) if (new RegExp(`\\b${r}\\b`).test(src)) into.add(r);
    return into;
  }
  if (Array.isArray(v)) for (const x of v) rootsOf(x, into);
  else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) rootsOf(x, into);
  return into;
}

/** Flattens the widget tree into an id → instance map (events, forms and refresh look widgets up). */
export function indexWidgets(widgets: readonly WidgetInstance[], out = new Map<string, WidgetInstance>()) {
  for (const w of widgets) {
    out.set(w.id, w);
    if (w.children) indexWidgets(w.children, out);
  }
  return out;
}

/** Bottom edge of a set of widgets in rows. */
function rowsOf(widgets: readonly WidgetInstance[], mode: PageMode): number {
  let max = 0;
  for (const w of widgets) max = Math.max(max, w.layout[mode].y + w.layout[mode].h);
  return max;
}

export interface GridGeometry {
  cols: number;
  rowHeight: number;
  width: number;
}

export function geometryOf(doc: PageDocument, mode: PageMode): GridGeometry {
  const m = (doc.layout?.[mode] ?? {}) as Record<string, unknown>;
  const fallback =
    mode === 'pc' ? { cols: 120, rowHeight: 10, width: 1200 } : { cols: 38, rowHeight: 10, width: 375 };
  const n = (v: unknown, d: number) => (typeof v === 'number' && v > 0 ? v : d);
  return {
    cols: n(m.cols, fallback.cols),
    rowHeight: n(m.rowHeight, fallback.rowHeight),
    width: n(m.width, fallback.width),
  };
}

/** Absolute box of a grid position: columns in percent, rows in px. */
export function boxStyle(pos: GridPos, g: GridGeometry): CSSProperties {
  return {
    position: 'absolute',
    left: `${(pos.x / g.cols) * 100}%`,
    width: `${(Math.min(pos.w, g.cols) / g.cols) * 100}%`,
    top: pos.y * g.rowHeight,
    height: pos.h * g.rowHeight,
    overflow: 'auto',
  };
}

class WidgetBoundary extends Component<
  { id: string; kind: string; children: ReactNode },
  { error?: string }
> {
  override state: { error?: string } = {};
  static getDerivedStateFromError(e: unknown) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
  override componentDidCatch(e: unknown, info: ErrorInfo) {
    console.warn(`widget ${this.props.id} (${this.props.kind}) failed`, e, info.componentStack);
  }
  override render() {
    if (this.state.error !== undefined)
      return <BrokenWidget id={this.props.id} kind={this.props.kind} reason={this.state.error} />;
    return this.props.children;
  }
}

function BrokenWidget({ id, kind, reason }: { id: string; kind: string; reason?: string }) {
  const { t } = useTranslation();
  return (
    <div className="lc-broken" data-broken={id} title={reason}>
      <Alert type="error" showIcon title={t('runtime.broken', { kind })} description={reason} />
    </div>
  );
}

let firstPaintMarked = false;

/** Marks the first widget painted after a cold load (read by bench:runtime). */
function markFirstPaint() {
  if (firstPaintMarked || typeof performance === 'undefined') return;
  firstPaintMarked = true;
  performance.mark('lc:first-widget');
}

/**
 * How far down the top-level grid draws its widgets in the first commit: one and a half screens.
 * Widgets below keep their box (so nothing moves) and get their content in one render right after
 * the first paint. One render, not a time-sliced transition: slicing let a frame (style, layout and
 * paint of the whole growing page) in every 5 ms, which cost more than the widgets themselves
 * (200-widget page, opened from the menu: all drawn 516 vs 660 ms, same run). Without a window
 * (server-side rendering in tests) everything draws at once.
 */
function firstScreenPx(): number {
  return typeof window === 'undefined' ? Number.POSITIVE_INFINITY : Math.max(600, window.innerHeight * 1.5);
}

function Grid({
  widgets,
  g,
  top = false,
}: {
  widgets: readonly WidgetInstance[];
  g: GridGeometry;
  top?: boolean;
}) {
  const { mode } = usePageContext();
  const height = rowsOf(widgets, mode) * g.rowHeight;
  const [limit] = useState(() => (top ? firstScreenPx() : Number.POSITIVE_INFINITY));
  const deferred = widgets.some((w) => w.layout[mode].y * g.rowHeight >= limit);
  const [all, setAll] = useState(!deferred);
  useEffect(() => {
    if (all) return;
    // Passive effects of the first commit run after its paint; the timer leaves the frame first.
    const timer = setTimeout(() => setAll(true), 0);
    return () => clearTimeout(timer);
  }, [all]);
  useLayoutEffect(() => {
    if (top && all && typeof performance !== 'undefined') {
      performance.mark('lc:page-complete');
      try {
        performance.measure('lc:render-all', 'lc:page-json', 'lc:page-complete');
      } catch {
        // No JSON mark (rendered from memory).
      }
    }
  }, [top, all]);
  return (
    <div
      className="lc-grid"
      style={{ position: 'relative', width: '100%', height }}
      data-deferred={all ? undefined : '1'}
    >
      {widgets.map((w) => (
        <div key={w.id} style={boxStyle(w.layout[mode], g)} data-wid={w.id} data-kind={w.kind}>
          {all || w.layout[mode].y * g.rowHeight < limit ? (
            <WidgetBoundary id={w.id} kind={w.kind}>
              <WidgetBox w={w} g={g} />
            </WidgetBoundary>
          ) : null}
        </div>
      ))}
    </div>
  );
}

/** One widget: subscribe to what its bindings read, resolve props, load its data, render its kind. */
function WidgetBox({ w, g }: { w: WidgetInstance; g: GridGeometry }) {
  const ctx = usePageContext();
  const rt = useRuntime();
  const def = getWidget(w.kind);
  // A kind whose view is loaded draws at once; otherwise the lazy view suspends into the spinner.
  // Chosen once per widget, so a view that loads later never swaps the component (a remount).
  const View = useMemo(() => def?.loadedRender() ?? def?.render, [def]);
  const roots = useMemo(() => rootsOf([w.props, w.hidden]), [w]);
  const readsState = roots.has('state');
  const readsWidgets = roots.has('widgets');
  const slice = useStore(
    ctx.store,
    useShallow((s: PageStoreState) => ({
      state: readsState ? s.state : null,
      data: readsWidgets ? s.data : null,
      values: readsWidgets ? s.values : null,
      own: s.data[w.id],
      reload: s.reload[w.id] ?? 0,
      page: s.pages[w.id],
    })),
  );
  const record = rt.scope.record;
  const scope = useMemo<ExprScope>(
    () => ({
      user: ctx.user,
      params: ctx.params,
      state: slice.state ?? {},
      widgets:
        slice.data && slice.values
          ? widgetsScope({ ...ctx.store.getState(), data: slice.data, values: slice.values })
          : {},
      record,
    }),
    [ctx.user, ctx.params, slice.state, slice.data, slice.values, record, ctx.store],
  );
  const props = useMemo(() => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(w.props)) out[k] = resolveValue(v, scope);
    return out;
  }, [w.props, scope]);
  const hidden = w.hidden === undefined ? false : Boolean(resolveValue(w.hidden, scope));

  // Data-bound kinds load through the data API; a refreshWidget bumps `reload`.
  const query = def && !hidden ? widgetQuery(w.kind, props, ctx.params, slice.page) : null;
  const queryKey = query ? JSON.stringify(query) : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: queryKey is the query's identity; reload forces a new load
  useEffect(() => {
    if (!queryKey || !query) return;
    let live = true;
    const prev = ctx.store.getState().data[w.id];
    setWidgetData(ctx.store, w.id, { ...(prev ?? EMPTY_DATA), loading: true });
    void loadWidgetData(ctx.project, query.entity, query.body).then((d) => {
      if (live) setWidgetData(ctx.store, w.id, d);
    });
    return () => {
      live = false;
    };
  }, [queryKey, slice.reload, ctx.project, ctx.store, w.id]);

  useLayoutEffect(markFirstPaint, []);

  // Inside a list copy, events carry that copy's record.
  const local = useMemo<WidgetRuntime | null>(
    () =>
      record === undefined
        ? null
        : { ...rt, dispatch: (e: WidgetEvent) => rt.dispatch({ ...e, payload: e.payload ?? record }) },
    [rt, record],
  );

  if (hidden) return null;
  if (!def || !View || w.broken) return <BrokenWidget id={w.id} kind={w.kind} reason={w.brokenReason} />;
  const Render = View;
  const children =
    def.meta.container && w.children?.length ? <Grid widgets={w.children} g={{ ...g }} /> : undefined;
  const body = (
    <Suspense fallback={<Spin size="small" />}>
      <Render id={w.id} props={props as WidgetRenderProps['props']}>
        {children}
      </Render>
    </Suspense>
  );
  const withDrafts =
    w.kind === 'form' && ctx.runtimeMode === 'runtime' ? (
      <FormDrafts page={ctx.doc.id} form={w.id} store={ctx.store}>
        {body}
      </FormDrafts>
    ) : (
      body
    );
  return local ? <WidgetRuntimeProvider runtime={local}>{withDrafts}</WidgetRuntimeProvider> : withDrafts;
}

export interface PageRendererProps {
  project: string;
  /** The page's record id (the document's own id may differ): names its room on the live channel. */
  pageId?: string;
  doc: PageDocument;
  mode: PageMode;
  params?: Record<string, unknown>;
  user?: unknown;
  runtimeMode?: 'runtime' | 'preview';
  lang?: 'zh' | 'en';
  /** Builds the action host for this page (effects: navigation, modals, notices, sandbox). */
  host: (page: {
    store: PageStore;
    index: Map<string, WidgetInstance>;
    scope: () => ExprScope;
  }) => ActionHost;
  /** Told the page's action host once the page is on screen (the setup script runs with it). */
  onHost?: (host: ActionHost) => void;
  /** Renders a nested page (page / simple-page kinds). */
  renderPage?: (pageId: string) => ReactNode;
}

const NO_PARAMS: Record<string, unknown> = {};
/** Events whose payload is a record: their actions see it as `record` (e.g. open it in a modal). */
const RECORD_EVENTS = new Set(['onRowClick', 'onClick', 'onCardClick']);

export function PageRenderer(p: PageRendererProps) {
  const { doc, mode, project } = p;
  const params = p.params ?? NO_PARAMS;
  const store = useMemo(() => createPageStore(doc), [doc]);
  const index = useMemo(() => indexWidgets(doc.widgets), [doc]);
  const g = useMemo(() => geometryOf(doc, mode), [doc, mode]);
  const hostRef = useRef<ActionHost | null>(null);

  const scopeOf = useMemo(() => {
    let last: { data: unknown; values: unknown; widgets: Record<string, unknown> } | null = null;
    return (): ExprScope => {
      const s = store.getState();
      if (!last || last.data !== s.data || last.values !== s.values)
        last = { data: s.data, values: s.values, widgets: widgetsScope(s) };
      return { user: p.user, params, state: s.state, widgets: last.widgets };
    };
  }, [store, p.user, params]);

  const host = useMemo(() => p.host({ store, index, scope: scopeOf }), [p.host, store, index, scopeOf]);
  hostRef.current = host;

  // The data widgets and data sources bound to any of these tables (named by code or _id) reload.
  const reloadTables = useMemo(
    () => (names: readonly string[]) => {
      const bound = (name: string) => names.some((n) => sameEntity(project, name, n));
      const scope = scopeOf();
      for (const w of index.values())
        if (w.props.entity !== undefined && bound(str(resolveValue(w.props.entity, scope))))
          bumpReload(store, w.id);
      for (const ds of doc.dataSources ?? [])
        if (ds.type === 'entity' && typeof ds.id === 'string' && bound(str(ds.entity)))
          bumpReload(store, ds.id);
    },
    [project, index, doc, store, scopeOf],
  );
  // A live page (one holding a real-time widget) hears of others' changes on the socket channel;
  // after each (re)connect it reloads the tables its live widgets show, in case it missed some.
  const liveTables = useMemo(() => {
    const names = new Set<string>();
    for (const w of index.values())
      if (isLiveWidget(w) && typeof w.props.entity === 'string') names.add(w.props.entity);
    return [...names];
  }, [index]);
  const livePage = useLivePage({
    project,
    pageId: p.pageId,
    enabled: (p.runtimeMode ?? 'runtime') === 'runtime' && liveTables.length > 0,
    onChange: (change: RecordsChange | null) =>
      reloadTables(change ? [change.entity, change.code] : liveTables),
  });
  const live = useRef(livePage);
  live.current = livePage;

  const runtime = useMemo<WidgetRuntime>(() => {
    const rt: WidgetRuntime = {
      mode: p.runtimeMode ?? 'runtime',
      lang: p.lang ?? 'zh',
      data: (id) => store.getState().data[id] ?? EMPTY_DATA,
      get values() {
        return store.getState().values;
      },
      setValue: (id, v) => store.setState((s) => ({ values: { ...s.values, [id]: v } })),
      subscribeValue: (id, listener) => {
        let prev = store.getState().values[id];
        return store.subscribe((s) => {
          const v = s.values[id];
          if (v !== prev) {
            prev = v;
            listener(v);
          }
        });
      },
      dispatch: (e) => {
        const h = hostRef.current;
        if (!h) return;
        const w = index.get(e.widget);
        const list = w?.events?.[e.event];
        if (e.event === 'onPageChange') {
          const pg = recordOf(e.payload);
          if (pg)
            store.setState((s) => ({
              pages: { ...s.pages, [e.widget]: { index: Number(pg.index), size: Number(pg.size) } },
            }));
        }
        const extra = RECORD_EVENTS.has(e.event) ? recordOf(e.payload) : undefined;
        if (Array.isArray(list) && list.length) {
          if (w?.kind === 'form' && e.event === 'onSubmit')
            store.setState((s) => ({ values: { ...s.values, [e.widget]: e.payload } }));
          void runActions(list, h, { extra: extra ? { record: extra } : undefined, payload: e.payload });
        } else if (w?.kind === 'form' && e.event === 'onSubmit') {
          // A form without its own onSubmit actions saves to its table.
          void runActions([{ type: 'submitForm', form: w.id }], h, { payload: e.payload });
        }
      },
      get scope() {
        return scopeOf();
      },
      // Each save tells every open page (see onEntityChanged below), and the others on a live page.
      saveRecords: async (entity, writes) => {
        for (const w of writes) await saveRecord(project, entity, w.values, w.id);
      },
      notify,
      ...(p.renderPage ? { renderPage: p.renderPage } : {}),
    };
    return rt;
  }, [store, index, scopeOf, p.runtimeMode, p.lang, p.renderPage, project]);

  // Page data sources: entity sources load on open (unless auto is off) and again on refreshWidget
  // (a bump of their reload number); static ones hold their rows.
  useEffect(() => {
    let live = true;
    const load = (ds: Record<string, unknown>, id: string) => {
      const page = (ds.page as { index?: number; size?: number } | undefined) ?? {};
      void queryEntity(project, str(ds.entity), {
        ...(ds.query ? { query: ds.query } : {}),
        page: { index: page.index ?? 1, size: page.size ?? 20 },
        count: true,
      })
        .then((a) => {
          if (live)
            setWidgetData(store, id, {
              rows: a.data,
              meta: { total: a.count ?? a.data.length },
              loading: false,
            });
        })
        .catch((e: unknown) => {
          if (live)
            setWidgetData(store, id, { ...EMPTY_DATA, error: e instanceof Error ? e.message : String(e) });
        });
    };
    const entitySources = new Map<string, Record<string, unknown>>();
    for (const ds of doc.dataSources ?? []) {
      const id = typeof ds.id === 'string' ? ds.id : '';
      if (!id) continue;
      if (ds.type === 'static' && Array.isArray(ds.rows)) {
        setWidgetData(store, id, {
          rows: ds.rows as Record<string, unknown>[],
          meta: { total: ds.rows.length },
          loading: false,
        });
      } else if (ds.type === 'entity' && typeof ds.entity === 'string') {
        entitySources.set(id, ds);
        if (ds.auto !== false) load(ds, id);
      }
    }
    const stop = entitySources.size
      ? store.subscribe((next, prev) => {
          if (next.reload === prev.reload) return;
          for (const [id, ds] of entitySources) if (next.reload[id] !== prev.reload[id]) load(ds, id);
        })
      : undefined;
    return () => {
      live = false;
      stop?.();
    };
  }, [doc, store, project]);

  // Records saved, updated or removed anywhere in this tab (a form in a modal above this page, a
  // script, a board move) reload this page's widgets bound to that table; a live page also tells the
  // others in its room which table changed (by id and code; never row data).
  useEffect(
    () =>
      onEntityChanged((changedProject, entity) => {
        if (changedProject !== project) return;
        reloadTables([entity]);
        if (live.current.status === 'off') return;
        void entityMeta(project, entity)
          .catch(() => null)
          .then((m) => live.current.broadcast(m ? { entity: m.id, code: m.code } : { entity, code: entity }));
      }),
    [project, reloadTables],
  );

  const onHost = p.onHost;
  useEffect(() => onHost?.(host), [onHost, host]);

  // The page's own onLoad actions, once per page instance.
  useEffect(() => {
    const list = doc.events?.onLoad;
    if (Array.isArray(list) && list.length) void runActions(list, host);
  }, [doc, host]);

  useLayoutEffect(() => {
    if (typeof performance === 'undefined') return;
    performance.mark('lc:page-rendered');
    try {
      performance.measure('lc:render', 'lc:page-json', 'lc:page-rendered');
      performance.measure('lc:commit', 'lc:kinds-loaded', 'lc:page-rendered');
    } catch {
      // No JSON mark (rendered from memory): nothing to measure.
    }
  }, []);

  const ctx = useMemo<RendererContext>(
    () => ({ project, doc, mode, store, params, user: p.user, runtimeMode: p.runtimeMode ?? 'runtime' }),
    [project, doc, mode, store, params, p.user, p.runtimeMode],
  );
  const canvas: CSSProperties =
    mode === 'mobile'
      ? { width: g.width, maxWidth: '100%', margin: '0 auto' }
      : { width: '100%', maxWidth: g.width, margin: '0 auto' };
  const bg = (doc.layout?.[mode] as { background?: string } | undefined)?.background;
  // Whether a data widget or source is loading now (print waits until the page has its data).
  const busy = useStore(store, (s) => Object.values(s.data).some((d) => d.loading));
  return (
    <PageCtx.Provider value={ctx}>
      <WidgetRuntimeProvider runtime={runtime}>
        <div
          className={`lc-page lc-page-${mode}`}
          data-page={doc.id}
          data-mode={mode}
          data-busy={busy ? '1' : '0'}
          data-live={livePage.status}
          style={{ ...canvas, background: bg }}
        >
          <Grid widgets={doc.widgets} g={g} top />
        </div>
      </WidgetRuntimeProvider>
    </PageCtx.Provider>
  );
}

function recordOf(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/** Loads every kind's render a page uses, so the first commit paints real widgets, not spinners. */
export function preloadKinds(doc: PageDocument): Promise<unknown> {
  return loadKinds(kindsOf(doc));
}

/** True when every kind the page uses has its view loaded (unknown kinds draw as broken). */
export function kindsLoaded(doc: PageDocument): boolean {
  for (const k of kindsOf(doc)) {
    const def = getWidget(k);
    if (def && !def.loadedRender()) return false;
  }
  return true;
}

function loadKinds(kinds: Iterable<string>): Promise<unknown> {
  return Promise.all(
    [...kinds].map((k) =>
      getWidget(k)
        ?.loadRender()
        .catch(() => undefined),
    ),
  );
}
