/**
 * The page renderer: a published (or draft) page document laid out from its per-mode grid positions
 * (geometry.ts, Grid.tsx), each widget drawn by its kind's lazily loaded render with its bindings
 * resolved (WidgetBox.tsx, inside a per-widget error boundary), events running their actions
 * (dispatch.ts), data-bound widgets and data sources reading through the end-user data API
 * (data-source.ts, page-data-sources.ts) and reloading when their table changes (page-changes.ts).
 *
 * Speed at 200+ widgets: the context value is stable; each widget subscribes only to the store
 * slices its bindings read (state, widgets) plus its own data, and resolves its props in a memo on
 * exactly those — typing into one widget re-renders the widgets that read it, not the page.
 */
import { type CSSProperties, type ReactNode, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useStore } from 'zustand';
import { type WidgetRuntime, WidgetRuntimeProvider } from '../../../widgets/kit/widget-context.ts';
import type { ExprScope } from '../../shared/expr/index.ts';
import type { PageDocument, WidgetInstance } from '../../shared/page-document.ts';
import { type ActionHost, runActions } from './actions.ts';
import { entityMeta, saveRecord } from './data-source.ts';
import { pageDispatcher } from './dispatch.ts';
import { Grid } from './Grid.tsx';
import { geometryOf, type PageMode } from './geometry.ts';
import { notify } from './notices.ts';
import { usePageChanges } from './page-changes.ts';
import { EMPTY_DATA, indexWidgets, PageCtx, type RendererContext } from './page-context.ts';
import { usePageDataSources } from './page-data-sources.ts';
import {
  bumpReload,
  createPageStore,
  type PageStore,
  setWidgetPage,
  setWidgetView,
  widgetsScope,
} from './page-store.ts';
import { grantedPrograms } from './program-calls.ts';
import { markPageRendered } from './timing.ts';
import { RuntimeDataView } from './widget-data-view.tsx';

export type { PageMode };

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

export function PageRenderer(p: PageRendererProps) {
  const { doc, mode, project } = p;
  const params = p.params ?? NO_PARAMS;
  const runtimeMode = p.runtimeMode ?? 'runtime';
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

  const liveStatus = usePageChanges({
    project,
    pageId: p.pageId,
    live: runtimeMode === 'runtime',
    doc,
    store,
    index,
    scope: scopeOf,
  });

  const runtime = useMemo<WidgetRuntime>(() => {
    // Asked once per rendered page, fresh (a grant may have changed), by the first program widget.
    let granted: Promise<ReadonlySet<string>> | null = null;
    const rt: WidgetRuntime = {
      mode: runtimeMode,
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
      dispatch: pageDispatcher({ store, index, host: () => hostRef.current }),
      get scope() {
        return scopeOf();
      },
      // Each save tells every open page (page-changes.ts), and the others on a live page.
      saveRecords: async (entity, writes) => {
        for (const w of writes) await saveRecord(project, entity, w.values, w.id);
      },
      notify,
      // The upload call names a table by id (a widget may name it by code): the meta says which.
      // Its code loads with the first upload (only a form's file fields upload), not on the page path.
      upload: async (file, type, entity) => {
        const [{ uploadFile }, id] = await Promise.all([
          import('../api/upload.ts'),
          entity ? entityMeta(project, entity).then((m) => m.id) : undefined,
        ]);
        return uploadFile(project, file, file.name, { type, ...(id ? { entity: id } : {}) });
      },
      setView: (id, view) => setWidgetView(store, id, view),
      setPage: (id, page) => setWidgetPage(store, id, page),
      reload: (id) => bumpReload(store, id),
      ...(p.renderPage ? { renderPage: p.renderPage } : {}),
      grantedPrograms: () => {
        granted ??= grantedPrograms(project, true).then((list) => new Set(list.map((x) => x._id)));
        return granted;
      },
      // Table kinds bound to a table draw the end user's data view (list menu entries open the same).
      dataView: (request) => (
        <RuntimeDataView project={project} pageId={p.pageId} store={store} request={request} />
      ),
    };
    return rt;
  }, [store, index, scopeOf, runtimeMode, p.lang, p.renderPage, project, p.pageId]);

  usePageDataSources(project, doc, store);

  const onHost = p.onHost;
  useEffect(() => onHost?.(host), [onHost, host]);

  // The page's own onLoad actions, once per page instance.
  useEffect(() => {
    const list = doc.events?.onLoad;
    if (Array.isArray(list) && list.length) void runActions(list, host);
  }, [doc, host]);

  useLayoutEffect(markPageRendered, []);

  const ctx = useMemo<RendererContext>(
    () => ({ project, doc, mode, store, params, user: p.user, runtimeMode }),
    [project, doc, mode, store, params, p.user, runtimeMode],
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
          data-live={liveStatus}
          style={{ ...canvas, background: bg }}
        >
          <Grid widgets={doc.widgets} g={g} top />
        </div>
      </WidgetRuntimeProvider>
    </PageCtx.Provider>
  );
}
