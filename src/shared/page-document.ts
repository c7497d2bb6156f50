/**
 * The page document's types and constants (schemas/page.schema.json is the contract): what every
 * side (server, designer, runtime, Y.Doc mapping) reads and writes. The loader that cleans a stored
 * document up to this shape is `widgets/restore.ts`.
 */

/** The document format this code writes (a newer one loads as far as understood). */
export const PAGE_FORMAT_VERSION = 1;

/** Grid of each mode when a page says nothing: pc 120 columns × 10 px rows on 1200 px, mobile 38 on 375. */
export const DEFAULT_PAGE_LAYOUT = {
  pc: { cols: 120, rowHeight: 10, width: 1200 },
  mobile: { cols: 38, rowHeight: 10, width: 375 },
} as const;

export type PageMode = keyof typeof DEFAULT_PAGE_LAYOUT;

type Json = Record<string, unknown>;

/** A widget's props as stored: values or bindings (`{ $expr }`). */
export type WidgetProps = Record<string, unknown>;

/** A widget's box in grid units: columns across, rows down. */
export interface GridPos {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface WidgetInstance {
  id: string;
  kind: string;
  version: number;
  name?: string;
  props: WidgetProps;
  layout: { pc: GridPos; mobile: GridPos };
  children?: WidgetInstance[];
  events?: Record<string, unknown[]>;
  hidden?: boolean | { $expr: string };
  locked?: boolean;
  broken?: boolean;
  brokenReason?: string;
}

export interface PageDocument {
  id: string;
  title: string;
  version: number;
  layout: { pc: Json; mobile: Json };
  widgets: WidgetInstance[];
  state?: Record<string, Json>;
  dataSources?: Json[];
  setup?: Json[];
  events?: Record<string, unknown[]>;
  /** Page options; `_pc.print` is the page's print option. */
  _option?: Json;
}

/** Grid cells covering a px size in a mode's layout. */
export function sizeToGrid(
  size: { width: number; height: number },
  mode: { cols: number; rowHeight: number; width?: number },
): { w: number; h: number } {
  const colWidth = (mode.width ?? 1200) / mode.cols;
  return {
    w: Math.max(1, Math.min(mode.cols, Math.ceil(size.width / colWidth))),
    h: Math.max(1, Math.ceil(size.height / mode.rowHeight)),
  };
}
