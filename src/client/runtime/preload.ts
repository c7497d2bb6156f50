/** Loading the kinds' render code a page uses, so the first commit paints real widgets, not spinners. */
import { getWidget } from '../../../widgets/registry.ts';
import type { PageDocument } from '../../shared/page-document.ts';
import { kindsOf } from './page-prefetch.ts';

/** Loads every kind's render a page uses. */
export function preloadKinds(doc: PageDocument): Promise<unknown> {
  return Promise.all(
    [...kindsOf(doc)].map((k) =>
      getWidget(k)
        ?.loadRender()
        .catch(() => undefined),
    ),
  );
}

/** True when every kind the page uses has its view loaded (unknown kinds draw as broken). */
export function kindsLoaded(doc: PageDocument): boolean {
  for (const k of kindsOf(doc)) {
    const def = getWidget(k);
    if (def && !def.loadedRender()) return false;
  }
  return true;
}
