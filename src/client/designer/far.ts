/**
 * Which of the page's top-level widgets are far from the viewport. Those skip style, layout and
 * paint of their content (`content-visibility: hidden` on `.dz-item[data-far]`), as
 * `content-visibility: auto` did; but `auto` asks the browser to test every item against the viewport
 * in every frame (an intersection observer over 1,000 targets: 2–3 ms a frame, a drag step or an edit
 * included) and paints more. Here the canvas works it out from the widgets' grid boxes when it
 * scrolls or the page changes, and only the widgets whose flag flips render again.
 */

/** A vertical span of the page, in unscaled page pixels. */
export interface Span {
  top: number;
  bottom: number;
}

/** How far beyond the visible part of the page a widget still counts as near, in viewport heights. */
export const NEAR_VIEWPORTS = 1;

/** The span of the page that counts as near: what the scroll box shows, one viewport above and below. */
export function nearSpan(view: { pageTop: number; height: number; zoom: number }): Span {
  const z = view.zoom || 1;
  const top = -view.pageTop / z;
  const height = view.height / z;
  return { top: top - height * NEAR_VIEWPORTS, bottom: top + height * (1 + NEAR_VIEWPORTS) };
}

/** A visitor over the top-level widgets: calls `visit` with each one's id, top and bottom (page px). */
export type SpanSource = (visit: (id: string, top: number, bottom: number) => void) => void;

const outside = (top: number, bottom: number, near: Span) => bottom < near.top || top > near.bottom;

/** The ids among `items` (id, top, bottom in page px) that lie wholly outside `near`. */
export function farIds(items: SpanSource, near: Span): Set<string> {
  const out = new Set<string>();
  items((id, top, bottom) => {
    if (outside(top, bottom, near)) out.add(id);
  });
  return out;
}

/**
 * Per-widget far flags for useSyncExternalStore, recomputed on demand. An update runs after every
 * change of the page (a duplicate, an undo): it walks the widgets through a visitor and flips the
 * flags that changed in place, so it allocates nothing per widget (a generator's tuples and a new set
 * of 900 ids on every edit were a third of what a duplicate allocated before its frame).
 */
export class FarItems {
  private far = new Set<string>();
  private listeners = new Map<string, Set<() => void>>();
  private near: Span;
  private readonly flips: string[] = [];

  /** `items` visits the top-level widgets with their spans; `near` is the first guess (top of page). */
  constructor(
    private readonly items: SpanSource,
    near: Span,
  ) {
    this.near = near;
    this.far = farIds(items, near);
  }

  isFar(id: string): boolean {
    return this.far.has(id);
  }

  /** Recomputes against a new near span (a scroll, a resize) or the current one (the page changed). */
  update(near: Span = this.near) {
    this.near = near;
    const flips = this.flips;
    flips.length = 0;
    let farSeen = 0;
    this.items((id, top, bottom) => {
      const far = outside(top, bottom, near);
      if (far) farSeen++;
      if (far !== this.far.has(id)) flips.push(id);
    });
    for (const id of flips) if (!this.far.delete(id)) this.far.add(id);
    // A far widget that left the page keeps no flag (the set holds exactly the page's far widgets).
    if (this.far.size !== farSeen) this.far = farIds(this.items, near);
    const woken = flips.splice(0);
    for (const id of woken) this.wake(id);
  }

  subscribe(id: string, l: () => void): () => void {
    let set = this.listeners.get(id);
    if (!set) {
      set = new Set();
      this.listeners.set(id, set);
    }
    set.add(l);
    return () => {
      set.delete(l);
      if (!set.size) this.listeners.delete(id);
    };
  }

  private wake(id: string) {
    for (const l of this.listeners.get(id) ?? []) l();
  }
}
