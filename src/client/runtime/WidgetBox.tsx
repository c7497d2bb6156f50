/**
 * One widget: subscribes to the store slices its bindings read (state, widgets) plus its own data,
 * resolves its props in a memo on exactly those, loads its data, and renders its kind — so typing into
 * one widget re-renders the widgets that read it, not the page.
 */
import { Spin } from 'antd';
import { type ReactNode, Suspense, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { WidgetRenderProps } from '../../../widgets/define.ts';
import {
  useRuntime,
  type WidgetEvent,
  type WidgetRuntime,
  WidgetRuntimeProvider,
} from '../../../widgets/kit/widget-context.ts';
import { getWidget } from '../../../widgets/registry.ts';
import { type ExprScope, resolveValue } from '../../shared/expr/index.ts';
import type { WidgetInstance } from '../../shared/page-document.ts';
import type { KnownCount } from '../../shared/query/page-total.ts';
import { loadWidgetData, widgetQuery } from './data-source.ts';
import { loadDatasetWidget } from './dataset-client.ts';
import { recordOf } from './dispatch.ts';
import { FormDrafts } from './FormDrafts.tsx';
import { EMPTY_DATA, usePageContext } from './page-context.ts';
import { type PageStoreState, setWidgetData, widgetsScope } from './page-store.ts';
import { rootsOf } from './scope-roots.ts';
import { markFirstPaint } from './timing.ts';
import { BrokenWidget } from './WidgetBoundary.tsx';

/** `children`: the container's own grid of child widgets, if it has any. */
export function WidgetBox({ w, children }: { w: WidgetInstance; children?: ReactNode }) {
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
      view: s.views[w.id],
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

  // Data-bound kinds load through the data API; a refreshWidget bumps `reload`. The page comes first,
  // its count after (only when the page cannot tell it), remembered across pages and sorts.
  // A dataset source (the `dataset` prop of tables and charts) takes the place of the table.
  // A table kind the runtime draws as the data view loads its own rows, a dataset's too
  // (widget-data-view.tsx).
  const asView = Boolean(def?.dataView && rt.dataView);
  const dataset =
    def && !hidden && !asView && def.data !== 'none' && typeof props.dataset === 'string'
      ? props.dataset.trim()
      : '';
  const query =
    def && !hidden && !dataset && !asView
      ? widgetQuery(def.data, props, ctx.params, slice.page, slice.view)
      : null;
  // A chart's `paramName` / `paramValue` pass one parameter to its dataset (e.g. a filter's value).
  const datasetParams: Record<string, unknown> =
    typeof props.paramName === 'string' &&
    props.paramName &&
    props.paramValue !== undefined &&
    props.paramValue !== ''
      ? { [props.paramName]: props.paramValue }
      : {};
  const datasetKey = dataset
    ? JSON.stringify([
        dataset,
        props.pageSize ?? null,
        slice.page ?? null,
        slice.view?.sort ?? null,
        datasetParams,
      ])
    : '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: datasetKey is the show's identity; reload forces a new load
  useEffect(() => {
    if (!datasetKey || !def) return;
    let live = true;
    const prev = ctx.store.getState().data[w.id];
    setWidgetData(ctx.store, w.id, { ...(prev ?? EMPTY_DATA), loading: true });
    const size = typeof props.pageSize === 'number' ? props.pageSize : 20;
    void loadDatasetWidget(ctx.project, dataset, def.data, {
      pageSize: size,
      ...(slice.page ? { page: slice.page } : {}),
      ...(slice.view?.sort ? { sort: slice.view.sort } : {}),
      params: datasetParams,
    }).then((data) => {
      if (live) setWidgetData(ctx.store, w.id, data);
    });
    return () => {
      live = false;
    };
  }, [datasetKey, slice.reload, ctx.project, ctx.store, w.id]);
  const queryKey = query ? JSON.stringify([query, slice.view ?? null]) : '';
  const counted = useRef<KnownCount | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: queryKey is the query's identity; reload forces a new load
  useEffect(() => {
    if (!queryKey || !query) return;
    let live = true;
    const prev = ctx.store.getState().data[w.id];
    setWidgetData(ctx.store, w.id, { ...(prev ?? EMPTY_DATA), loading: true });
    const opts = {
      view: slice.view,
      counts: query.counts,
      key: `${query.entity}|${slice.reload}`,
      known: counted.current,
    };
    void loadWidgetData(ctx.project, query.entity, query.body, opts).then((r) => {
      if (!live) return;
      counted.current = r.known;
      setWidgetData(ctx.store, w.id, r.data);
      r.count?.().then(
        (known) => {
          counted.current = known;
          if (live)
            setWidgetData(ctx.store, w.id, {
              ...r.data,
              meta: { ...r.data.meta, total: known.n, exact: true },
            });
        },
        // The count failed: the lower bound stays.
        () => {},
      );
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
        : {
            ...rt,
            dispatch: (e: WidgetEvent) => rt.dispatch({ ...e, record: e.record ?? recordOf(record) }),
          },
    [rt, record],
  );

  if (hidden) return null;
  if (!def || !View || w.broken) return <BrokenWidget id={w.id} kind={w.kind} reason={w.brokenReason} />;
  const Render = View;
  const body = (
    <Suspense fallback={<Spin size="small" />}>
      <Render id={w.id} props={props as WidgetRenderProps['props']}>
        {children}
      </Render>
    </Suspense>
  );
  const withDrafts =
    def.form?.drafts && ctx.runtimeMode === 'runtime' ? (
      <FormDrafts page={ctx.doc.id} form={w.id} store={ctx.store}>
        {body}
      </FormDrafts>
    ) : (
      body
    );
  return local ? <WidgetRuntimeProvider runtime={local}>{withDrafts}</WidgetRuntimeProvider> : withDrafts;
}
