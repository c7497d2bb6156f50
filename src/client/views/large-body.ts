/**
 * Layout sums of the data view's large-mode body (LargeBody.tsx): which rows a scroll position
 * shows, where sticky (fixed) columns sit and how column widths fill the table. Kept apart from the
 * component so they are tested without a browser.
 */

/** Rows drawn beyond the visible ones, above and below (spec: overscan 5 on Y). */
export const OVERSCAN_Y = 5;

/**
 * The rows `[start, end)` to draw for a scroll position: those in view plus `overscan` on each side,
 * within `[0, count)`. Every row is `rowHeight` px high.
 */
export function rowWindow(
  scrollTop: number,
  viewHeight: number,
  rowHeight: number,
  count: number,
  overscan = OVERSCAN_Y,
): [number, number] {
  if (count <= 0 || rowHeight <= 0) return [0, 0];
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, viewHeight)) / rowHeight);
  const start = Math.min(count, Math.max(0, first - overscan));
  const end = Math.min(count, Math.max(start, last + overscan));
  return [start, end];
}

export type Side = 'left' | 'right';

/** Where a fixed cell sticks: its side, its offset from that side, its stacking and its shadow edge. */
export interface Stick {
  side: Side;
  offset: number;
  /** rc-table's `--z-offset-reverse` (antd's fixed-cell z-index adds its base to it). */
  z: number;
  /** The innermost fixed cell of its side (antd draws the scroll shadow from it). */
  edge: boolean;
}

/**
 * Sticky offsets as antd's table computes them: a left-fixed column sits after the widths of the
 * fixed columns before it, a right-fixed one before the widths of the fixed columns after it. A
 * column whose `fixed` does not stick (a left-fixed one after a scrolling one is still sticky, as in
 * antd) gets null when it is not fixed.
 */
export function stickies(cols: readonly { width: number; fixed?: Side | undefined }[]): (Stick | null)[] {
  const n = cols.length;
  const out: (Stick | null)[] = cols.map(() => null);
  let left = 0;
  for (let i = 0; i < n; i++) {
    const c = cols[i]!;
    if (c.fixed === 'left') {
      out[i] = { side: 'left', offset: left, z: n + i, edge: cols[i + 1]?.fixed !== 'left' };
      left += c.width;
    }
  }
  let right = 0;
  for (let i = n - 1; i >= 0; i--) {
    const c = cols[i]!;
    if (c.fixed === 'right') {
      out[i] = { side: 'right', offset: right, z: n - i, edge: cols[i - 1]?.fixed !== 'right' };
      right += c.width;
    }
  }
  return out;
}

/**
 * Column widths widened to fill `avail` px when together they are narrower (a fixed-width body
 * cannot stretch like a table does): the extra is shared by the `stretch` columns in proportion to
 * their widths, whole pixels, the rounding left-over going to the last of them. Wider than `avail`,
 * the widths are kept (the body scrolls sideways).
 */
export function fitWidths(widths: readonly number[], avail: number, stretch: readonly boolean[]): number[] {
  const total = widths.reduce((a, w) => a + w, 0);
  const grow = widths.reduce((a, w, i) => a + (stretch[i] ? w : 0), 0);
  if (!(avail > total) || grow <= 0) return [...widths];
  const extra = Math.floor(avail - total);
  const out = widths.map((w, i) => (stretch[i] ? w + Math.floor((extra * w) / grow) : w));
  const lastGrow = stretch.lastIndexOf(true);
  out[lastGrow] = out[lastGrow]! + (Math.floor(avail) - out.reduce((a, w) => a + w, 0));
  return out;
}
