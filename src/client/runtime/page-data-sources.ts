/**
 * Page data sources: entity sources load on open (unless auto is off) and again on refreshWidget (a
 * bump of their reload number); static ones hold their rows.
 */
import { useEffect } from 'react';
import type { PageDocument } from '../../shared/page-document.ts';
import { str } from '../../shared/props.ts';
import { countBody, totalAfterPage } from '../../shared/query/page-total.ts';
import { queryEntity } from './data-source.ts';
import { EMPTY_DATA } from './page-context.ts';
import { type PageStore, setWidgetData } from './page-store.ts';

export function usePageDataSources(project: string, doc: PageDocument, store: PageStore): void {
  useEffect(() => {
    let live = true;
    const load = (ds: Record<string, unknown>, id: string) => {
      const page = (ds.page as { index?: number; size?: number } | undefined) ?? {};
      const asked = { index: page.index ?? 1, size: page.size ?? 20 };
      const query = ds.query ? ds.query : undefined;
      // The page first; its count after, only when the page cannot tell it (src/shared/query/page-total.ts).
      void queryEntity(project, str(ds.entity), { ...(query ? { query } : {}), page: asked })
        .then(async (a) => {
          if (!live) return;
          const after = totalAfterPage(asked, a.data.length, '', null);
          const data = {
            rows: a.data,
            meta: { total: after.total.n, ...(after.total.exact ? {} : { exact: false }) },
            loading: false,
          };
          setWidgetData(store, id, data);
          if (!after.ask) return;
          // A failed count leaves the lower bound.
          const c = await queryEntity(project, str(ds.entity), countBody(query)).catch(() => null);
          if (live && c?.count !== undefined)
            setWidgetData(store, id, { ...data, meta: { total: c.count, exact: true } });
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
}
