/**
 * Performance marks of a page render, read by bench:runtime: `lc:page-json` (set by the page fetch)
 * → `lc:page-rendered` (first commit) → `lc:page-complete` (every widget drawn), and `lc:first-widget`
 * (the first widget painted after a cold load).
 */

let firstPaintMarked = false;

/** Marks the first widget painted after a cold load. */
export function markFirstPaint(): void {
  if (firstPaintMarked || typeof performance === 'undefined') return;
  firstPaintMarked = true;
  performance.mark('lc:first-widget');
}

/** Marks the page's first commit (its widgets of the first one and a half screens drawn). */
export function markPageRendered(): void {
  if (typeof performance === 'undefined') return;
  performance.mark('lc:page-rendered');
  try {
    performance.measure('lc:render', 'lc:page-json', 'lc:page-rendered');
    performance.measure('lc:commit', 'lc:kinds-loaded', 'lc:page-rendered');
  } catch {
    // No JSON mark (rendered from memory): nothing to measure.
  }
}

/** Marks every widget of the page drawn. */
export function markPageComplete(): void {
  if (typeof performance === 'undefined') return;
  performance.mark('lc:page-complete');
  try {
    performance.measure('lc:render-all', 'lc:page-json', 'lc:page-complete');
  } catch {
    // No JSON mark (rendered from memory).
  }
}
