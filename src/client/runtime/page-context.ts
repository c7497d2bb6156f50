/** What every widget box of a rendered page reads: the page, its mode and store, params and user. */
import { createContext, useContext } from 'react';
import type { WidgetData } from '../../../widgets/kit/widget-context.ts';
import type { PageDocument, WidgetInstance } from '../../shared/page-document.ts';
import type { PageMode } from './geometry.ts';
import type { PageStore } from './page-store.ts';

export interface RendererContext {
  project: string;
  doc: PageDocument;
  mode: PageMode;
  store: PageStore;
  params: Record<string, unknown>;
  user: unknown;
  runtimeMode: 'runtime' | 'preview';
}

export const PageCtx = createContext<RendererContext | null>(null);

export function usePageContext(): RendererContext {
  const ctx = useContext(PageCtx);
  if (!ctx) throw new Error('usePageContext outside a PageRenderer');
  return ctx;
}

/** The data of a widget nothing has loaded yet. */
export const EMPTY_DATA: WidgetData = { rows: [], meta: {}, loading: false };

/** Flattens the widget tree into an id → instance map (events, forms and refresh look widgets up). */
export function indexWidgets(widgets: readonly WidgetInstance[], out = new Map<string, WidgetInstance>()) {
  for (const w of widgets) {
    out.set(w.id, w);
    if (w.children) indexWidgets(w.children, out);
  }
  return out;
}
