/**
 * Pure editing logic of the designer: id rewiring for paste, align/distribute math, nudging, and the
 * clipboard format. No React, no DOM: unit-tested on its own.
 */
import type { GridPos, WidgetInstance } from '../../shared/page-document.ts';

export const CLIPBOARD_KEY = 'lc_designer_clipboard';
export const CLIPBOARD_TAG = 'lowcode-widgets/v1';

export interface ClipboardData {
  tag: typeof CLIPBOARD_TAG;
  /** Page the widgets were copied from (a paste into the same page offsets them). */
  page: string;
  widgets: WidgetInstance[];
}

/** A fresh widget id (the restore rule: a letter, then letters, digits, _ or -). */
export function newWidgetId(taken?: (id: string) => boolean): string {
  for (;;) {
    const id = `w${Math.random().toString(36).slice(2, 10)}${(Date.now() % 1296).toString(36)}`;
    if (!taken?.(id)) return id;
  }
}

function collectIds(ws: WidgetInstance[], out: string[] = []): string[] {
  for (const w of ws) {
    out.push(w.id);
    if (w.children) collectIds(w.children, out);
  }
  return out;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces whole-word identifiers (not after a dot, not inside quotes' member names) in an expression. */
export function rewriteExpr(expr: string, map: Map<string, string>): string {
  if (!map.size) return expr;
  const re = new RegExp(`(?<![\\w$.])(${[...map.keys()].map(escapeRe).join('|')})(?![\\w$])`, 'g');
  // String literals keep their text: only code between them is rewritten.
  return expr
    .split(/('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`)/)
    .map((part, i) => (i % 2 ? part : part.replace(re, (m) => map.get(m) ?? m)))
    .join('');
}

/** Rewrites references to old ids in any JSON value: exact id strings, `{ $expr }`, `{{ }}` templates. */
export function rewireValue(value: unknown, map: Map<string, string>): unknown {
  if (typeof value === 'string') {
    const exact = map.get(value);
    if (exact) return exact;
    if (value.includes('{{'))
      return value.replace(/\{\{([\s\S]*?)\}\}/g, (_m, inner: string) => `{{${rewriteExpr(inner, map)}}}`);
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => rewireValue(v, map));
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (typeof obj.$expr === 'string' && Object.keys(obj).length === 1)
      return { $expr: rewriteExpr(obj.$expr, map) };
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) out[k] = rewireValue(v, map);
    return out;
  }
  return value;
}

/**
 * Copies of widget trees with fresh ids; every reference to a widget inside the group (bindings,
 * templates, event targets) points to its copy. References to widgets outside the group are kept.
 */
export function cloneWithNewIds(
  widgets: WidgetInstance[],
  taken?: (id: string) => boolean,
): { widgets: WidgetInstance[]; map: Map<string, string> } {
  const map = new Map<string, string>();
  const used = new Set<string>();
  for (const id of collectIds(widgets)) {
    const fresh = newWidgetId((x) => used.has(x) || !!taken?.(x));
    used.add(fresh);
    map.set(id, fresh);
  }
  const copy = (w: WidgetInstance): WidgetInstance => {
    const out: WidgetInstance = {
      ...structuredClone(w),
      id: map.get(w.id)!,
      props: rewireValue(w.props, map) as WidgetInstance['props'],
    };
    if (w.events) out.events = rewireValue(w.events, map) as WidgetInstance['events'];
    if (w.hidden !== undefined) out.hidden = rewireValue(w.hidden, map) as WidgetInstance['hidden'];
    if (w.children) out.children = w.children.map(copy);
    return out;
  };
  return { widgets: widgets.map(copy), map };
}

/** Moves every widget of a group by (dx, dy) in both modes (paste into the same page). */
export function offsetGroup(widgets: WidgetInstance[], dx: number, dy: number): WidgetInstance[] {
  return offsetGroupBy(widgets, { pc: dy, mobile: dy }, dx);
}

function offsetGroupBy(
  widgets: WidgetInstance[],
  dy: Record<'pc' | 'mobile', number>,
  dx = 0,
): WidgetInstance[] {
  return widgets.map((w) => ({
    ...w,
    layout: {
      pc: { ...w.layout.pc, x: w.layout.pc.x + dx, y: w.layout.pc.y + dy.pc },
      mobile: { ...w.layout.mobile, x: w.layout.mobile.x + dx, y: w.layout.mobile.y + dy.mobile },
    },
  }));
}

/** The bounding box of positions (undefined for none). */
export function boundsOf(list: readonly GridPos[]): GridPos | undefined {
  if (!list.length) return undefined;
  const x = Math.min(...list.map((p) => p.x));
  const y = Math.min(...list.map((p) => p.y));
  const right = Math.max(...list.map((p) => p.x + p.w));
  const bottom = Math.max(...list.map((p) => p.y + p.h));
  return { x, y, w: right - x, h: bottom - y };
}

/**
 * Places a pasted or duplicated group where it covers nothing: its own spot when that is free (a
 * paste into another page or container), else the first free rows below it, in each mode on its own.
 * The group moves as one block (its bounding box), so the widgets keep their relative positions.
 */
export function placeGroup(
  widgets: WidgetInstance[],
  others: Record<'pc' | 'mobile', readonly GridPos[]>,
): WidgetInstance[] {
  const dy = { pc: 0, mobile: 0 };
  for (const mode of ['pc', 'mobile'] as const) {
    const box = boundsOf(widgets.map((w) => w.layout[mode]));
    if (box) dy[mode] = freeSpot(box, others[mode]).y - box.y;
  }
  return dy.pc || dy.mobile ? offsetGroupBy(widgets, dy) : widgets;
}

/** Clamps a position into a grid of `cols` columns. */
export function clampPos(p: GridPos, cols: number): GridPos {
  const w = Math.max(1, Math.min(cols, p.w));
  return { x: Math.max(0, Math.min(cols - w, p.x)), y: Math.max(0, p.y), w, h: Math.max(1, p.h) };
}

export function nudge(
  positions: Record<string, GridPos>,
  dx: number,
  dy: number,
  cols: number,
): Record<string, GridPos> {
  const out: Record<string, GridPos> = {};
  for (const [id, p] of Object.entries(positions))
    out[id] = clampPos({ ...p, x: p.x + dx, y: p.y + dy }, cols);
  return out;
}

export type Align = 'left' | 'right' | 'top' | 'bottom' | 'hcenter' | 'vcenter';

/** Aligns positions to the selection's bounding box edge or centre. */
export function align(positions: Record<string, GridPos>, how: Align): Record<string, GridPos> {
  const list = Object.values(positions);
  if (list.length < 2) return { ...positions };
  const left = Math.min(...list.map((p) => p.x));
  const right = Math.max(...list.map((p) => p.x + p.w));
  const top = Math.min(...list.map((p) => p.y));
  const bottom = Math.max(...list.map((p) => p.y + p.h));
  const out: Record<string, GridPos> = {};
  for (const [id, p] of Object.entries(positions)) {
    const n = { ...p };
    if (how === 'left') n.x = left;
    else if (how === 'right') n.x = right - p.w;
    else if (how === 'hcenter') n.x = Math.round((left + right - p.w) / 2);
    else if (how === 'top') n.y = top;
    else if (how === 'bottom') n.y = bottom - p.h;
    else n.y = Math.round((top + bottom - p.h) / 2);
    out[id] = n;
  }
  return out;
}

/**
 * Spreads positions evenly along an axis: first and last stay, the gaps between neighbours become
 * equal (rounded to whole cells).
 */
export function distribute(positions: Record<string, GridPos>, axis: 'h' | 'v'): Record<string, GridPos> {
  const entries = Object.entries(positions);
  if (entries.length < 3) return { ...positions };
  const pos = axis === 'h' ? 'x' : 'y';
  const size = axis === 'h' ? 'w' : 'h';
  entries.sort((a, b) => a[1][pos] - b[1][pos] || a[0].localeCompare(b[0]));
  const first = entries[0]![1];
  const last = entries.at(-1)![1];
  const total = entries.reduce((n, [, p]) => n + p[size], 0);
  const span = last[pos] + last[size] - first[pos];
  const gap = (span - total) / (entries.length - 1);
  const out: Record<string, GridPos> = {};
  let cursor = first[pos];
  entries.forEach(([id, p], i) => {
    const at = i === entries.length - 1 ? last[pos] : Math.round(cursor);
    out[id] = { ...p, [pos]: at };
    cursor += p[size] + gap;
  });
  return out;
}

/** Parses clipboard text; undefined when it is not ours. */
export function parseClipboard(text: string | null | undefined): ClipboardData | undefined {
  if (!text) return undefined;
  try {
    const data = JSON.parse(text) as ClipboardData;
    if (data?.tag === CLIPBOARD_TAG && Array.isArray(data.widgets)) return data;
  } catch {
    // not ours
  }
  return undefined;
}

/**
 * The first spot at or below `pos` (same column) where it overlaps none of `others`: down past the
 * lowest bottom of what it covers, again, until nothing is in the way. Only widgets sharing its
 * columns can be in the way, and in top order the scan stops at the first that starts below it (a
 * copy dropped below a stack of 1,000 widgets steps down the stack; a filter of all of them per
 * step took milliseconds).
 *
 * One pass: a widget that starts above the spot's end either was in the way (its bottom is at most
 * the next spot's top) or ended above the spot, so the next step goes on from where the last stopped.
 * Indexed loops: this runs a few times a session, in V8's interpreter, where each step of a for-of
 * allocates; the old rescan from the top for every step down a stack of 1,000 allocated ~0.4 MB a
 * duplicate.
 */
export function freeSpot(pos: GridPos, others: readonly GridPos[]): GridPos {
  const inWay = others.filter((o) => pos.x < o.x + o.w && o.x < pos.x + pos.w).sort((a, b) => a.y - b.y);
  let y = pos.y;
  let i = 0;
  for (;;) {
    let bottom = -1;
    for (; i < inWay.length; i++) {
      const o = inWay[i]!;
      if (o.y >= y + pos.h) break;
      if (o.y + o.h > y && o.y + o.h > bottom) bottom = o.y + o.h;
    }
    if (bottom < 0) return { ...pos, y };
    y = bottom;
  }
}

/**
 * The grid cell of an item whose top-left corner sits at (left, top) px inside a grid (unzoomed px,
 * no margins), clamped into the grid; the item keeps its size (at most the grid's columns).
 */
export function cellAt(
  at: { left: number; top: number },
  grid: { width: number; cols: number; rowHeight: number },
  size: { w: number; h: number },
): GridPos {
  const colW = grid.width / grid.cols;
  const w = Math.max(1, Math.min(grid.cols, size.w));
  const x = Math.round(at.left / colW);
  const y = Math.round(at.top / grid.rowHeight);
  return { x: Math.max(0, Math.min(grid.cols - w, x)), y: Math.max(0, y), w, h: Math.max(1, size.h) };
}
