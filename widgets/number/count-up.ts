/**
 * Count-up animations of number widgets on one shared animation frame loop, written straight to the
 * element's text: a page of counters costs one frame callback and no React render per frame (each
 * counter re-rendering itself every frame for 3 s competed with the page's own first render).
 */
interface Run {
  el: HTMLElement;
  start: number;
  duration: number;
  value: number;
  decimals: number;
}

const runs = new Set<Run>();
let frame = 0;

/** Ease-out cubic: fast at first, settling on the value. */
export function eased(value: number, t: number): number {
  return value * (1 - (1 - Math.min(1, Math.max(0, t))) ** 3);
}

function tick(now: number) {
  frame = 0;
  for (const run of runs) {
    const t = (now - run.start) / run.duration;
    run.el.textContent = eased(run.value, t).toFixed(run.decimals);
    if (t >= 1) runs.delete(run);
  }
  if (runs.size) frame = requestAnimationFrame(tick);
}

/** Animates `el`'s text from 0 to `value`; returns a stop function (leaves the final value). */
export function countUp(el: HTMLElement, value: number, duration: number, decimals: number): () => void {
  const final = value.toFixed(decimals);
  if (duration <= 0 || typeof requestAnimationFrame === 'undefined') {
    el.textContent = final;
    return () => {};
  }
  const run: Run = { el, start: performance.now(), duration, value, decimals };
  runs.add(run);
  el.textContent = eased(value, 0).toFixed(decimals);
  if (!frame) frame = requestAnimationFrame(tick);
  return () => {
    if (!runs.delete(run)) return;
    el.textContent = final;
    if (!runs.size && frame) {
      cancelAnimationFrame(frame);
      frame = 0;
    }
  };
}
