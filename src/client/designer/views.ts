/**
 * The kinds' views as the canvas draws them: a widget draws its view directly once its kind's code is
 * in, and a light placeholder until then. No Suspense on the way: a lazy view suspends, and a page
 * of a thousand widgets whose boundaries all suspend at once renders every view again in one block
 * when the code arrives. Here each widget waits on its kind's load and draws when it is in.
 */
import { type ComponentType, useCallback, useSyncExternalStore } from 'react';
import type { WidgetDef, WidgetRenderProps } from '../../../widgets/define.ts';
import { getWidget } from '../../../widgets/index.ts';

type View = ComponentType<WidgetRenderProps>;

/** Kinds whose code failed to load, with the reason (shown on the widget's box). */
const failed = new Map<string, string>();

/** Where a kind's view stands: drawn by `view`, still loading, or failed (with the reason). */
export type ViewState = { view: View } | { loading: true } | { error: string };

export function viewState(def: WidgetDef): ViewState {
  const view = def.loadedRender();
  if (view) return { view };
  const error = failed.get(def.kind);
  return error === undefined ? { loading: true } : { error };
}

/** Starts loading a kind's code (once); settles when it is in or has failed. */
function load(def: WidgetDef): Promise<void> {
  return def.loadRender().then(
    () => undefined,
    (e: unknown) => {
      failed.set(def.kind, e instanceof Error ? e.message : String(e));
    },
  );
}

/** Per kind still loading: the load of the batch it was asked for with (see loadKinds). */
const batches = new Map<string, Promise<void>>();

/**
 * Starts loading the code of these kinds, all at once; settles when every one is in or has failed
 * (unknown kinds are skipped: they draw as broken). Widgets waiting on any of them draw together
 * when the whole batch is in: one render and one layout of the page instead of one per kind.
 */
export function loadKinds(
  kinds: Iterable<string>,
  lookup: (kind: string) => WidgetDef | undefined = getWidget,
): Promise<void> {
  const defs: WidgetDef[] = [];
  for (const kind of new Set(kinds)) {
    const def = lookup(kind);
    if (def && !def.loadedRender() && !failed.has(kind)) defs.push(def);
  }
  if (!defs.length) return Promise.resolve();
  const batch = Promise.all(defs.map(load)).then(() => {
    for (const d of defs) if (batches.get(d.kind) === batch) batches.delete(d.kind);
  });
  for (const d of defs) if (!batches.has(d.kind)) batches.set(d.kind, batch);
  return batch;
}

/** True when every one of these kinds has its view in (or is unknown, or failed). */
export function kindsSettled(
  kinds: Iterable<string>,
  lookup: (kind: string) => WidgetDef | undefined = getWidget,
): boolean {
  for (const kind of kinds) {
    const def = lookup(kind);
    if (def && !def.loadedRender() && !failed.has(kind)) return false;
  }
  return true;
}

const WAITING: ViewState = { loading: true };

/**
 * The view of a kind for a widget's render: re-renders the widget once the code is in. Not `wanted`
 * (the widget still shows its placeholder): nothing to follow, so the arrival of the code does not
 * render again the hundreds of placeholders of a newly opened page.
 */
export function useKindView(def: WidgetDef, wanted = true): ViewState {
  const subscribe = useCallback(
    (changed: () => void) => {
      if (!wanted || def.loadedRender() || failed.has(def.kind)) return () => {};
      let live = true;
      void (batches.get(def.kind) ?? load(def)).then(() => {
        if (live) changed();
      });
      return () => {
        live = false;
      };
    },
    [def, wanted],
  );
  // The state object changes identity on every call: compare what it says instead.
  return useSyncExternalStore(subscribe, () => (wanted ? stable(def) : WAITING));
}

const states = new Map<string, ViewState>();
function stable(def: WidgetDef): ViewState {
  const next = viewState(def);
  const old = states.get(def.kind);
  if (
    old &&
    (('view' in old && 'view' in next && old.view === next.view) ||
      ('loading' in old && 'loading' in next) ||
      ('error' in old && 'error' in next && old.error === next.error))
  )
    return old;
  states.set(def.kind, next);
  return next;
}
