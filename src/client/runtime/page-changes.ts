/**
 * Records changed elsewhere reload the widgets and data sources of this page bound to that table:
 * saves anywhere in this tab (a form in a modal above the page, a script, a board move), and — on a
 * live page, one holding a real-time widget — changes others broadcast on the socket channel.
 */
import { useEffect, useMemo, useRef } from 'react';
import { getWidget } from '../../../widgets/registry.ts';
import type { ExprScope } from '../../shared/expr/index.ts';
import { resolveValue } from '../../shared/expr/index.ts';
import type { PageDocument, WidgetInstance } from '../../shared/page-document.ts';
import { str } from '../../shared/props.ts';
import { entityMeta, onEntityChanged, sameEntity } from './data-source.ts';
import { isLiveWidget, type LiveStatus, type RecordsChange, useLivePage } from './live.ts';
import { bumpReload, type PageStore } from './page-store.ts';

export function usePageChanges(page: {
  project: string;
  pageId: string | undefined;
  /** Only the end-user runtime joins the live channel (not previews). */
  live: boolean;
  doc: PageDocument;
  store: PageStore;
  index: Map<string, WidgetInstance>;
  scope: () => ExprScope;
}): LiveStatus {
  const { project, doc, store, index, scope: scopeOf } = page;
  // The data widgets and data sources bound to any of these tables (named by code or _id) reload.
  // `ownSave`: a save in this tab. A table kind drawn as the data view hears those on the bus itself
  // (views/use-live-table.ts); bumping it too would load its rows twice for one save.
  const reloadTables = useMemo(
    () =>
      (names: readonly string[], ownSave = false) => {
        const bound = (name: string) => names.some((n) => sameEntity(project, name, n));
        const scope = scopeOf();
        for (const w of index.values()) {
          if (w.props.entity === undefined) continue;
          if (ownSave && drawnAsView(w, scope)) continue;
          if (bound(str(resolveValue(w.props.entity, scope)))) bumpReload(store, w.id);
        }
        for (const ds of doc.dataSources ?? [])
          if (ds.type === 'entity' && typeof ds.id === 'string' && bound(str(ds.entity)))
            bumpReload(store, ds.id);
      },
    [project, index, doc, store, scopeOf],
  );
  // A live page hears of others' changes on the socket channel; after each (re)connect it reloads the
  // tables its live widgets show, in case it missed some.
  const liveTables = useMemo(() => {
    const names = new Set<string>();
    for (const w of index.values())
      if (isLiveWidget(w) && typeof w.props.entity === 'string') names.add(w.props.entity);
    return [...names];
  }, [index]);
  const livePage = useLivePage({
    project,
    pageId: page.pageId,
    enabled: page.live && liveTables.length > 0,
    onChange: (change: RecordsChange | null) =>
      reloadTables(change ? [change.entity, change.code] : liveTables),
  });
  const live = useRef(livePage);
  live.current = livePage;

  // A live page also tells the others in its room which table changed (by id and code; never row data).
  useEffect(
    () =>
      onEntityChanged((changedProject, entity) => {
        if (changedProject !== project) return;
        reloadTables([entity], true);
        if (live.current.status === 'off') return;
        void entityMeta(project, entity)
          .catch(() => null)
          .then((m) => live.current.broadcast(m ? { entity: m.id, code: m.code } : { entity, code: entity }));
      }),
    [project, reloadTables],
  );
  return livePage.status;
}

/** A table kind bound to a table (not a dataset): the runtime draws it as the data view. */
function drawnAsView(w: WidgetInstance, scope: ExprScope): boolean {
  return getWidget(w.kind)?.dataView === true && !str(resolveValue(w.props.dataset, scope)).trim();
}
