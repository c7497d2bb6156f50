/**
 * Widget events to actions: a widget's event runs the action list the page gives it, with the event's
 * payload, and as `record` the row the event carries (events its kind declares with a `record`
 * payload) or else the row of the list copy the widget sits in. A form kind's submit event with no
 * actions of its own saves the form.
 */
import type { WidgetEvent } from '../../../widgets/kit/widget-context.ts';
import { getWidget } from '../../../widgets/registry.ts';
import type { WidgetInstance } from '../../shared/page-document.ts';
import { type ActionHost, runActions } from './actions.ts';
import type { PageStore } from './page-store.ts';

export function recordOf(v: unknown): Record<string, unknown> | undefined {
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
    const def = w ? getWidget(w.kind) : undefined;
    const declared = def?.events.find((x) => x.name === e.event);
    const record = (declared?.payload === 'record' ? recordOf(e.payload) : undefined) ?? e.record;
    const submits = w !== undefined && def?.form?.submitEvent === e.event;
    if (Array.isArray(list) && list.length) {
      if (submits) store.setState((s) => ({ values: { ...s.values, [e.widget]: e.payload } }));
      void runActions(list, h, { extra: record ? { record } : undefined, payload: e.payload });
    } else if (submits) {
      // A form without its own onSubmit actions saves to its table.
      void runActions([{ type: 'submitForm', form: e.widget }], h, { payload: e.payload });
    } else if (def?.defaultActions?.[e.event]) {
      const actions = def.defaultActions[e.event]!(e.payload);
      if (actions.length)
        void runActions(actions as never, h, { extra: record ? { record } : undefined, payload: e.payload });
    }
  };
}
