/**
 * Draw what is in view first. Opening a page of a thousand widgets used to render every widget's
 * real view (antd tables, charts …) before the first paint. Now a widget's view renders at once when
 * its box is in or near the viewport; the others show a light placeholder of the same size and get
 * their view when they come near the viewport, or in one interruptible transition right after the
 * first paint — so the whole canvas is real a moment later, while the builder can already work.
 * Nothing moves: boxes (position, size, selection, drag) are drawn for every widget from the start.
 */
import {
  type RefObject,
  startTransition,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';

/** How far outside the viewport a box still counts as near (a fraction of the viewport). */
const NEAR = 0.5;

/** The page (its model) whose widgets may all render now; any other page starts with what is near. */
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

/** A newly opened page shows what is near the viewport first, then fills in after a paint. */
export function revealAfterPaint(page: object): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(() => startTransition(() => setEverything(page)), 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer) clearTimeout(timer);
  };
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
function nearViewport(el: Element): boolean {
  const r = (el.closest('.dz-item') ?? el).getBoundingClientRect();
  const h = window.innerHeight;
  const w = window.innerWidth;
  return r.bottom >= -h * NEAR && r.top <= h * (1 + NEAR) && r.right >= -w * NEAR && r.left <= w * (1 + NEAR);
}

/**
 * Whether a widget's view should render now; attach `ref` to its placeholder. Once true it stays true
 * for the life of the widget's element (scrolling away never unmounts a view).
 */
export function useRevealed<T extends Element>(
  page: object,
): {
  revealed: boolean;
  ref: RefObject<T | null>;
} {
  const all = useSyncExternalStore(subscribe, () => everything) === page;
  const [seen, setSeen] = useState(false);
  const ref = useRef<T | null>(null);
  const revealed = all || seen;
  useLayoutEffect(() => {
    if (revealed || !ref.current) return;
    // In view at the first layout: render the view before the browser paints.
    if (nearViewport(ref.current)) {
      setSeen(true);
      return;
    }
    return observe(ref.current, () => setSeen(true));
  }, [revealed]);
  return { revealed, ref };
}
