/**
 * Draw what is in view first. Opening a page of a thousand widgets used to render every widget's
 * real view (antd tables, charts …) before the first paint. Now a widget's view renders at once when
 * its box is in the viewport; the others show a light placeholder of the same size and get their
 * view when they come into view, or by the page's fill-in after the first paint: small
 * batches, nearest first, each its own interruptible transition committed before the next starts,
 * so no single task renders hundreds of views and the builder can work (and scroll, and click)
 * while the rest of the canvas becomes real. Nothing moves: boxes (position, size, selection, drag)
 * are drawn for every widget from the start.
 */
import {
  type RefObject,
  startTransition,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';

/**
 * How far outside the viewport a box still counts as in view (a fraction of the viewport): none. A
 * margin of half a viewport each way drew twice the views the builder sees before the page's first
 * paint (a third of the time to open a page of 1,000); the fill-in that follows the first paint goes
 * nearest first, so the widgets just outside the view are the next ones drawn anyway.
 */
const NEAR = 0;

/** The page (its model) whose widgets all render at once: its fill-in is done. */
let everything: object | null = null;
const listeners = new Set<() => void>();
const setEverything = (v: object | null) => {
  if (everything === v) return;
  everything = v;
  for (const l of [...listeners]) l();
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** A widget waiting for its view: its placeholder and how to reveal it. */
interface Waiting {
  page: object;
  el: Element;
  reveal: () => void;
}
const waiting = new Set<Waiting>();
/** Revealed by the fill-in, not yet committed (the batch is done when this empties). */
const inFlight = new Set<Waiting>();
let onCommitted: (() => void) | null = null;

/** Batch sizes of the fill-in: start small, grow while batches stay quick, shrink when they are not. */
// A batch's time runs from its start to its commit, a frame of the whole canvas included (style,
// layout and paint of every box): on a busy machine even small batches take 100 ms or more, and
// halving down to a handful of views made the fill-in of 1,000 widgets take 11 s. Hence fewer,
// larger batches (the render of a batch is a transition: input still goes first).
export const BATCH = { first: 48, min: 96, max: 400, fastMs: 100, slowMs: 400 } as const;

/** The next batch size after a batch of `size` took `ms` from its start to its commit. */
export function nextBatchSize(size: number, ms: number): number {
  if (ms < BATCH.fastMs) return Math.min(BATCH.max, size * 2);
  if (ms > BATCH.slowMs) return Math.max(BATCH.min, Math.floor(size / 2));
  return size;
}

/** Vertical distance of a box from the viewport (0 inside it); the fill-in goes nearest first. */
export function distanceFromView(r: { top: number; bottom: number }, viewHeight: number): number {
  if (r.bottom < 0) return -r.bottom;
  if (r.top > viewHeight) return r.top - viewHeight;
  return 0;
}

/**
 * Fills in a newly opened page after its first paint: the waiting widgets, nearest first, in batches
 * (see BATCH) that each commit before the next starts; then marks the page done, so widgets added
 * later draw their view at once, and calls `done`. Returns a cancel function.
 */
export function revealAfterPaint(page: object, done?: () => void): () => void {
  let cancelled = false;
  let frame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let order: Waiting[] | null = null;
  let size: number = BATCH.first;
  /** After the next paint, in a task of its own. */
  const later = (f: () => void) => {
    frame = requestAnimationFrame(() => {
      timer = setTimeout(f, 0);
    });
  };
  const batch = () => {
    if (cancelled) return;
    if (!order) {
      // Positions read once, on a laid-out page: the first batch's start.
      const h = window.innerHeight;
      order = [...waiting]
        .filter((w) => w.page === page)
        .map((w) => ({ w, d: distanceFromView(boxOf(w.el).getBoundingClientRect(), h) }))
        .sort((a, b) => a.d - b.d)
        .map((x) => x.w);
    }
    const next: Waiting[] = [];
    while (order.length && next.length < size) {
      const w = order.shift()!;
      if (waiting.has(w)) next.push(w);
    }
    if (!next.length) {
      startTransition(() => setEverything(page));
      done?.();
      return;
    }
    const t0 = performance.now();
    for (const w of next) {
      waiting.delete(w);
      inFlight.add(w);
    }
    onCommitted = () => {
      onCommitted = null;
      size = nextBatchSize(size, performance.now() - t0);
      later(batch);
    };
    startTransition(() => {
      for (const w of next) w.reveal();
    });
  };
  later(batch);
  return () => {
    cancelled = true;
    cancelAnimationFrame(frame);
    if (timer) clearTimeout(timer);
    onCommitted = null;
    inFlight.clear();
  };
}

/** A widget of the fill-in committed its view (or went away): the batch ends with its last one. */
function settled(w: Waiting) {
  if (!inFlight.delete(w)) return;
  if (!inFlight.size) onCommitted?.();
}

let observer: IntersectionObserver | undefined;
const onNear = new Map<Element, () => void>();
function observe(el: Element, cb: () => void): () => void {
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const e of entries)
        if (e.isIntersecting) {
          onNear.get(e.target)?.();
          onNear.delete(e.target);
          observer?.unobserve(e.target);
        }
    },
    { rootMargin: `${NEAR * 100}%` },
  );
  onNear.set(el, cb);
  observer.observe(el);
  return () => {
    onNear.delete(el);
    observer?.unobserve(el);
  };
}

/**
 * Measured on the canvas item around the widget: items skip the layout of their content while off
 * screen (content-visibility), and measuring inside one would force that layout, once per widget.
 */
const boxOf = (el: Element) => el.closest('.dz-item') ?? el;

/**
 * The part of the window where the canvas shows widgets: the window cut to the scroll box around the
 * canvas (a page wider than the canvas area, at 100 %, runs on under the inspector, clipped). Widgets
 * clipped away draw their view with the fill-in or when scrolled to, as those below the fold do.
 */
function visibleArea(el: Element): { top: number; bottom: number; left: number; right: number } {
  const h = window.innerHeight;
  const w = window.innerWidth;
  const area = { top: -h * NEAR, bottom: h * (1 + NEAR), left: -w * NEAR, right: w * (1 + NEAR) };
  const scroller = el.closest(SCROLLER);
  if (!scroller) return area;
  const s = scroller.getBoundingClientRect();
  return {
    top: Math.max(area.top, s.top),
    bottom: Math.min(area.bottom, s.bottom),
    left: Math.max(area.left, s.left),
    right: Math.min(area.right, s.right),
  };
}

/** The canvas's scroll box (Canvas.tsx). */
const SCROLLER = '.dz-scroll';

function inViewport(el: Element): boolean {
  const r = boxOf(el).getBoundingClientRect();
  const a = visibleArea(el);
  return r.bottom > a.top && r.top < a.bottom && r.right > a.left && r.left < a.right;
}

/**
 * Whether a widget's view should render now; attach `ref` to its placeholder. Once true it stays true
 * for the life of the widget's element (scrolling away never unmounts a view).
 *
 * `far`: the widget sits far from view (see far.ts). Once the page is filled in, a widget added far
 * from view (a paste or a duplicate that lands below the page's end, an undone delete down the page)
 * keeps its placeholder until it comes near, as a widget of a newly opened page does: pasting 50
 * widgets draws 50 boxes, not 50 antd tables and charts nobody sees yet.
 */
export function useRevealed<T extends Element>(
  page: object,
  far = false,
  inBulk = false,
): {
  revealed: boolean;
  ref: RefObject<T | null>;
} {
  const all = useSyncExternalStore(subscribe, () => everything) === page;
  const [seen, setSeen] = useState(false);
  const due = all && !far;
  // Revealed for good as soon as it is due (a render-phase update: React renders again at once) …
  if (due && !inBulk && !seen) setSeen(true);
  // … unless it came as one of many (a pasted group): then its box draws first, its view in a
  // transition (rendered in slices, input first), so a paste of 50 widgets is no long task.
  useLayoutEffect(() => {
    if (due && inBulk && !seen) startTransition(() => setSeen(true));
  }, [due, inBulk, seen]);
  const ref = useRef<T | null>(null);
  const entry = useRef<Waiting | null>(null);
  const revealed = seen || (due && !inBulk);
  useLayoutEffect(() => {
    // After the fill-in, a far widget waits for its far flag to clear (above); nothing to measure.
    if (revealed || all || !ref.current) return;
    // In view at the first layout: render the view before the browser paints.
    if (inViewport(ref.current)) {
      setSeen(true);
      return;
    }
    const w: Waiting = { page, el: ref.current, reveal: () => setSeen(true) };
    entry.current = w;
    waiting.add(w);
    const stop = observe(ref.current, () => {
      waiting.delete(w);
      setSeen(true);
    });
    return () => {
      stop();
      waiting.delete(w);
    };
  }, [revealed, all, page]);
  // The view is in the DOM (or the widget is gone): the fill-in's batch may move on.
  useLayoutEffect(() => {
    const w = entry.current;
    if (!revealed || !w) return;
    entry.current = null;
    settled(w);
  }, [revealed]);
  useLayoutEffect(
    () => () => {
      if (entry.current) settled(entry.current);
    },
    [],
  );
  return { revealed, ref };
}
