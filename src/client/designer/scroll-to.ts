/** Brings a widget picked outside the canvas (the layers tree) into view on the canvas. */
import type { DocModel } from './model.ts';

/** How many frames to wait for the canvas to draw a far container near (see far.ts) before giving up. */
const MAX_FRAMES = 30;

function onCanvas(id: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-testid="canvas"] [data-wid="${CSS.escape(id)}"]`);
}

/**
 * Scrolls the canvas to widget `id`. A nested widget sits inside a top-level container, and a
 * container far from view has its content left out of layout (`content-visibility: hidden`), where
 * the browser cannot scroll to anything: the container is scrolled to first, and the widget once the
 * canvas has marked the container near (a frame or two after the scroll).
 */
export function scrollToWidget(model: DocModel, id: string): void {
  const el = onCanvas(id);
  if (!el) return;
  const top = model.ancestors(id).at(-1);
  const box = top === undefined ? null : onCanvas(top);
  if (!box?.hasAttribute('data-far')) {
    el.scrollIntoView({ block: 'nearest' });
    return;
  }
  box.scrollIntoView({ block: 'nearest' });
  let frames = 0;
  const next = () => {
    if (box.hasAttribute('data-far') && ++frames < MAX_FRAMES) requestAnimationFrame(next);
    else if (el.isConnected) el.scrollIntoView({ block: 'nearest' });
  };
  requestAnimationFrame(next);
}
