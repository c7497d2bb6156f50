/**
 * The runtime's `dataView` (widgets/kit/widget-context.ts): a table kind bound to a table draws the end
 * user's data view (src/client/views), loaded lazily so pages without one never fetch it. The rows it
 * shows are the widget's data for expressions (`widgets.<id>.rows`, `.total`), and a refreshWidget
 * action (the page store's reload count) loads it again.
 */
import { Spin } from 'antd';
import { lazy, Suspense, useCallback } from 'react';
import { useStore } from 'zustand';
import type { DataViewRequest } from '../../../widgets/kit/widget-context.ts';
import { type PageStore, setWidgetData } from './page-store.ts';

const WidgetDataView = lazy(() => import('../views/WidgetDataView.tsx'));

export function RuntimeDataView(props: {
  project: string;
  pageId?: string | undefined;
  store: PageStore;
  request: DataViewRequest;
}) {
  const { store, request } = props;
  const id = request.widget;
  const reloadSignal = useStore(store, (s) => s.reload[id] ?? 0);
  const onData = useCallback(
    (rows: Record<string, unknown>[], total: { n: number; exact: boolean }, loading: boolean) =>
      setWidgetData(store, id, { rows, meta: { total: total.n, exact: total.exact }, loading }),
    [store, id],
  );
  return (
    <Suspense
      fallback={
        // Marked like a grid not drawn yet, so whoever waits for the page to settle (print) waits.
        <div data-deferred="1">
          <Spin />
        </div>
      }
    >
      <WidgetDataView
        {...request}
        project={props.project}
        pageId={props.pageId}
        reloadSignal={reloadSignal}
        onData={onData}
      />
    </Suspense>
  );
}
