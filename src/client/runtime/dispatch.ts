/**
 * Widget events to actions: a widget's event runs the action list the page gives it, with the event's
 * payload (and, for events whose payload is a record, that record as `record`).
 */
import type { WidgetEvent } from '../../../widgets/kit/widget-context.ts';
import type { WidgetInstance } from '../../shared/page-document.ts';
import { type ActionHost, runActions } from './actions.ts';
import type { PageStore } from './page-store.ts';

/** Events whose payload is a record: their actions see it as `record` (e.g. open it in a modal). */
const RECORD_EVENTS = new Set(['onRowClick', 'onClick', 'onCardClick']);

function recordOf(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/** The page's event dispatcher; `host()` answers the action host of the page once it is on screen. */
export function pageDispatcher(page: {
  store: PageStore;
  index: Map<string, WidgetInstance>;
  host: () => ActionHost | null;
}): (e: WidgetEvent) => void {
  const { store, index } = page;
  return (e) => {
    const h = page.host();
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
  };
}
