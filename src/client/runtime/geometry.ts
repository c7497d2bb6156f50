/**
 * Page geometry is the designer's (react-grid-layout numbers): x, y, w, h in grid units; `cols`
 * columns across the canvas and rows of `rowHeight` px. Columns are laid out in percent of the canvas
 * (pc: the available width up to the page's width; mobile: the phone width), rows in px.
 */
import type { CSSProperties } from 'react';
import {
  DEFAULT_PAGE_LAYOUT,
  type GridPos,
  type PageDocument,
  type PageMode,
  type WidgetInstance,
} from '../../shared/page-document.ts';

export type { PageMode };

export interface GridGeometry {
  cols: number;
  rowHeight: number;
  width: number;
}

export function geometryOf(doc: PageDocument, mode: PageMode): GridGeometry {
  const m = (doc.layout?.[mode] ?? {}) as Record<string, unknown>;
  const fallback = DEFAULT_PAGE_LAYOUT[mode];
  const n = (v: unknown, d: number) => (typeof v === 'number' && v > 0 ? v : d);
  return {
    cols: n(m.cols, fallback.cols),
    rowHeight: n(m.rowHeight, fallback.rowHeight),
    width: n(m.width, fallback.width),
  };
}

/** Absolute box of a grid position: columns in percent, rows in px. */
export function boxStyle(pos: GridPos, g: GridGeometry): CSSProperties {
  return {
    position: 'absolute',
    left: `${(pos.x / g.cols) * 100}%`,
    width: `${(Math.min(pos.w, g.cols) / g.cols) * 100}%`,
    top: pos.y * g.rowHeight,
    height: pos.h * g.rowHeight,
    overflow: 'auto',
  };
}

/** Bottom edge of a set of widgets in rows. */
export function rowsOf(widgets: readonly WidgetInstance[], mode: PageMode): number {
  let max = 0;
  for (const w of widgets) max = Math.max(max, w.layout[mode].y + w.layout[mode].h);
  return max;
}

/**
 * How far down the top-level grid draws its widgets in the first commit: one and a half screens.
 * Widgets below keep their box (so nothing moves) and get their content in one render right after
 * the first paint. One render, not a time-sliced transition: slicing let a frame (style, layout and
 * paint of the whole growing page) in every 5 ms, which cost more than the widgets themselves
 * (200-widget page, opened from the menu: all drawn 516 vs 660 ms, same run). Without a window
 * (server-side rendering in tests) everything draws at once.
 */
export function firstScreenPx(): number {
  return typeof window === 'undefined' ? Number.POSITIVE_INFINITY : Math.max(600, window.innerHeight * 1.5);
}
