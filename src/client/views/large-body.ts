/**
 * Layout sums of the data view's large-mode body (LargeBody.tsx): which rows and columns a scroll
 * position shows, where sticky (fixed) columns sit, when their edge shadows show and how column
 * widths fill the table. Kept apart from the component so they are tested without a browser.
 */

/** Rows drawn beyond the visible ones, above and below (spec: overscan 5 on Y). */
export const OVERSCAN_Y = 5;
/**
 * Pixels drawn beyond the view's sides (spec: overscan 0 on X): only the columns in view are drawn,
 * and a sideways step draws the columns it brings in before its frame paints (LargeBody.tsx).
 */
export const OVERSCAN_X = 0;

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

/**
 * The columns `[start, end)` to draw sideways: those within the view (`viewWidth` px from
 * `scrollLeft`) or `overscan` px either side of it. Fixed columns are drawn wherever they are
 * (`rowSlots`); this says which of the scrolling ones are.
 */
export function columnWindow(
  widths: readonly number[],
  scrollLeft: number,
  viewWidth: number,
  overscan = OVERSCAN_X,
): [number, number] {
  const from = Math.max(0, scrollLeft) - overscan;
  const to = Math.max(0, scrollLeft) + Math.max(0, viewWidth) + overscan;
  let start = -1;
  let end = 0;
  let x = 0;
  for (let i = 0; i < widths.length; i++) {
    const left = x;
    x += widths[i]!;
    if (x > from && left < to) {
      if (start < 0) start = i;
      end = i + 1;
    }
  }
  return start < 0 ? [0, 0] : [start, end];
}

/** A drawn cell (its column's index) or the room of the columns not drawn between two drawn ones. */
export type Slot = number | { gap: number };

/**
 * A row's parts in order: the columns of `win` and every fixed (sticky) column, the columns between
 * two drawn ones as one gap of their widths, so each drawn cell stays where the header's is (a
 * sticky cell sticks from its own place). Nothing follows the last drawn cell: the row has its width.
 */
export function rowSlots(
  cols: readonly { width: number; fixed?: Side | undefined }[],
  win: [number, number],
): Slot[] {
  const out: Slot[] = [];
  let gap = 0;
  for (let i = 0; i < cols.length; i++) {
    const c = cols[i]!;
    if (c.fixed || (i >= win[0] && i < win[1])) {
      if (gap > 0) out.push({ gap });
      gap = 0;
      out.push(i);
    } else gap += c.width;
  }
  return out;
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
 * Which fixed cells show their edge shadow at this sideways scroll, as rc-table decides it: the
 * innermost start cell once the scrolling columns before it are scrolled past (by a pixel), the
 * innermost end cell while those after it are not yet scrolled through. `range` is how far the body
 * scrolls sideways (its scroll width less its client width).
 */
export function edgeShadows(
  cols: readonly { width: number; fixed?: Side | undefined }[],
  sticks: readonly (Stick | null)[],
  scrollLeft: number,
  range: number,
): boolean[] {
  const left = Math.abs(scrollLeft);
  return cols.map((_, i) => {
    const s = sticks[i];
    if (!s?.edge) return false;
    let before = 0;
    if (s.side === 'left') {
      for (let j = 0; j < i; j++) if (cols[j]!.fixed !== 'left') before += cols[j]!.width;
      return left - before >= 1;
    }
    let after = 0;
    for (let j = i + 1; j < cols.length; j++) if (cols[j]!.fixed !== 'right') after += cols[j]!.width;
    return range - left - after > 1;
  });
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
