/**
 * The designer's zustand store: selection, mode, zoom, clipboard and UI state. Page content lives in
 * the Y.Doc (see model.ts); every edit here is one local transaction the undo manager tracks.
 */
import { create } from 'zustand';
import { getWidget } from '../../../widgets/index.ts';
import { newWidgetProps } from '../../../widgets/localized-defaults.ts';
import {
  DEFAULT_PAGE_LAYOUT,
  type GridPos,
  type PageDocument,
  sizeToGrid,
  type WidgetInstance,
} from '../../shared/page-document.ts';
import {
  insertWidgets,
  LOCAL_ORIGIN,
  type Mode,
  moveWidget,
  patchProps,
  removeWidgets,
  setLayouts,
  setPageField,
  setWidgetField,
} from '../../shared/page-ydoc.ts';
import { currentLang } from '../i18n/index.ts';
import {
  type Align,
  align as alignMath,
  CLIPBOARD_KEY,
  CLIPBOARD_TAG,
  type ClipboardData,
  clampPos,
  cloneWithNewIds,
  distribute as distributeMath,
  newWidgetId,
  nudge as nudgeMath,
  parseClipboard,
  placeGroup,
} from './commands.ts';
import type { DocModel } from './model.ts';

export type SaveState = 'saved' | 'saving' | 'dirty' | 'error' | 'invalid';

/** The page settings a patch may change (never `widgets`, which the canvas edits). */
export type PagePatch = Partial<
  Pick<PageDocument, 'title' | 'layout' | 'state' | 'dataSources' | 'events' | 'setup'>
>;

export interface WidgetPatch {
  props?: Record<string, unknown>;
  events?: Record<string, unknown[]>;
  name?: string;
}

interface DesignerState {
  model: DocModel | null;
  pageId: string;
  selection: ReadonlySet<string>;
  mode: Mode;
  zoom: number;
  /**
   * The zoom follows the canvas's width ("fit to width", the default when a page opens): the canvas
   * sets it as the window resizes. Picking a zoom (100 %, −, +) turns it off.
   */
  zoomFit: boolean;
  /** The palette kind being dragged (HTML drag data is unreadable during dragover). */
  draggingKind: string | null;
  save: SaveState;
  saveError: string;
  canUndo: boolean;
  canRedo: boolean;
  /** Set by the co-editing session: this user may only look (edits are refused here and on the server). */
  readOnly: boolean;
  setReadOnly(readOnly: boolean): void;

  setModel(model: DocModel | null, pageId?: string): void;
  select(ids: string[], how?: 'replace' | 'toggle' | 'add'): void;
  setMode(mode: Mode): void;
  /** A zoom picked by the user (fit to width off). */
  setZoom(zoom: number): void;
  /** One step along ZOOM_STEPS (1 in, -1 out); fit to width off. */
  zoomBy(dir: 1 | -1): void;
  /** Fit to width on: the canvas works the zoom out from its width (see fitZoom). */
  zoomToFit(): void;
  /** The canvas's fitted zoom; ignored once the user picked a zoom. */
  setFitZoom(zoom: number): void;
  setDraggingKind(kind: string | null): void;
  setSave(state: SaveState, error?: string): void;

  applyWidgetPatch(id: string, patch: WidgetPatch): void;
  /** Page settings (title, layout, state, data sources, events, setup); same merging as widgets. */
  applyPagePatch(patch: PagePatch): void;
  setField(id: string, key: 'name' | 'hidden' | 'locked', value: unknown): void;
  setLayouts(positions: Record<string, GridPos>, mode?: Mode): void;
  /** Adds a widget; `others` are positions of siblings it pushed aside (same undo step). */
  addWidget(
    kind: string,
    parent: string | null,
    pos?: Partial<GridPos>,
    index?: number,
    others?: Record<string, GridPos>,
  ): string | undefined;
  move(id: string, parent: string | null, index: number): boolean;
  /**
   * Moves a widget into another grid (a container's, or the page's) at a position of the current
   * mode, as one undo step; its other mode's position goes below what that grid holds there.
   * False (nothing changed) when the target is the widget itself or inside it, or it is locked.
   */
  moveTo(id: string, parent: string | null, pos: GridPos, mode?: Mode): boolean;
  remove(ids?: string[]): void;
  copy(): ClipboardData | undefined;
  cut(): void;
  paste(data?: ClipboardData): string[];
  duplicate(): string[];
  nudge(dx: number, dy: number): void;
  /**
   * Brings the selected widgets one place forward (1: drawn over the next sibling) or back (-1)
   * in their grid's order, as one undo step; false when none can move that way.
   */
  restack(dir: 1 | -1): boolean;
  align(how: Align): void;
  distribute(axis: 'h' | 'v'): void;
  undo(): void;
  redo(): void;
  /** Ends the current undo step: the next edit starts a new one. */
  breakStep(): void;
}

/** The canvas zoom levels the −/+ controls and Ctrl+= / Ctrl+- step through. */
export const ZOOM_STEPS = [0.25, 0.5, 0.67, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 2] as const;
const clampZoom = (z: number) => (Number.isFinite(z) ? Math.max(0.25, Math.min(2, z)) : 1);

/** The next zoom step from `zoom` in a direction (a zoom between steps goes to the neighbouring one). */
export function nextZoom(zoom: number, dir: 1 | -1): number {
  const next =
    dir > 0
      ? ZOOM_STEPS.find((z) => z > zoom + 1e-6)
      : [...ZOOM_STEPS].reverse().find((z) => z < zoom - 1e-6);
  return next ?? clampZoom(zoom);
}

/**
 * The zoom at which a page `pageWidth` px wide fits a canvas area `available` px wide (its padding
 * taken off): never above 100 % (a phone page is not blown up), never below the smallest step.
 */
export function fitZoom(available: number, pageWidth: number): number {
  if (!(available > 0) || !(pageWidth > 0)) return 1;
  return Math.max(ZOOM_STEPS[0], Math.min(1, Math.floor((available / pageWidth) * 100) / 100));
}

/** Columns of the grid a widget sits in for a mode (nested grids use the page's columns too). */
export function colsOf(model: DocModel | null, mode: Mode): number {
  const layout = model?.pageField<Record<Mode, { cols?: number }>>('layout');
  return layout?.[mode]?.cols ?? DEFAULT_PAGE_LAYOUT[mode].cols;
}

/** Height of a grid row in a mode (nested grids use the page's too). */
export function rowHeightOf(model: DocModel | null, mode: Mode): number {
  const layout = model?.pageField<Record<Mode, { rowHeight?: number }>>('layout');
  return layout?.[mode]?.rowHeight ?? DEFAULT_PAGE_LAYOUT[mode].rowHeight;
}

/** Top-level selected ids (a widget whose ancestor is also selected is carried by that ancestor). */
function topSelected(model: DocModel, selection: ReadonlySet<string>): string[] {
  return [...selection].filter((id) => model.has(id) && !model.ancestors(id).some((a) => selection.has(a)));
}

/**
 * The moves (id, parent, index among the other siblings) that bring widgets one place forward or
 * back among their siblings. Selected neighbours move as a block: one never jumps over another.
 */
export function restackMoves(
  model: DocModel,
  ids: readonly string[],
  dir: 1 | -1,
): [string, string | null, number][] {
  const chosen = new Set(ids);
  const out: [string, string | null, number][] = [];
  const parents = new Set(ids.map((id) => model.get(id)?.parent ?? null));
  for (const parent of parents) {
    const order = [...model.children(parent)];
    // From the end it moves towards, so a moved widget never blocks the one behind it.
    const picked = order.filter((id) => chosen.has(id));
    if (dir > 0) picked.reverse();
    for (const id of picked) {
      const i = order.indexOf(id);
      const j = i + dir;
      if (j < 0 || j >= order.length || chosen.has(order[j]!)) continue;
      order.splice(i, 1);
      order.splice(j, 0, id);
      out.push([id, parent, j]);
    }
  }
  return out;
}

/** Positions of a parent's children in both modes (where a pasted group must not land). */
function siblingLayouts(model: DocModel, parent: string | null): Record<Mode, GridPos[]> {
  const kids = model.children(parent).map((id) => model.get(id)!.layout);
  return { pc: kids.map((l) => l.pc), mobile: kids.map((l) => l.mobile) };
}

function writeClipboard(data: ClipboardData) {
  const text = JSON.stringify(data);
  try {
    localStorage.setItem(CLIPBOARD_KEY, text);
  } catch {
    // storage full or off: the system clipboard below may still hold it
  }
  try {
    void navigator.clipboard?.writeText(text).catch(() => {});
  } catch {
    // no clipboard permission
  }
}

export function readStoredClipboard(): ClipboardData | undefined {
  try {
    return parseClipboard(localStorage.getItem(CLIPBOARD_KEY));
  } catch {
    return undefined;
  }
}

/** Where an undo stack item keeps the selection to restore (see setModel). */
const SELECTION_META = 'selection';

export const useDesigner = create<DesignerState>()((set, get) => {
  const m = () => get().model;
  /** The model when this user may change it; null while read-only (reviewers, expired, demoted). */
  const w = () => (get().readOnly ? null : get().model);
  const refreshUndo = () => {
    const model = m();
    set({ canUndo: !!model?.undo.canUndo(), canRedo: !!model?.undo.canRedo() });
  };
  /** One discrete command = one undo step. */
  const step = (fn: (model: DocModel) => void) => {
    const model = w();
    if (!model) return;
    model.undo.stopCapturing();
    fn(model);
    model.undo.stopCapturing();
    refreshUndo();
  };
  const positionsOf = (ids: string[], mode: Mode) => {
    const model = m()!;
    const out: Record<string, GridPos> = {};
    for (const id of ids) {
      const v = model.get(id);
      if (v && !v.locked) out[id] = { ...v.layout[mode] };
    }
    return out;
  };

  return {
    model: null,
    pageId: '',
    selection: new Set(),
    mode: 'pc',
    zoom: 1,
    zoomFit: true,
    draggingKind: null,
    save: 'saved',
    saveError: '',
    canUndo: false,
    canRedo: false,
    readOnly: false,

    setReadOnly: (readOnly) => set({ readOnly }),
    setModel: (model, pageId = '') => {
      get().model?.destroy();
      if (model) {
        // Undo and redo bring back the selection of their step's start (the original after undoing a
        // duplicate, the deleted widgets after undoing a delete), as other editors do: each stack item
        // keeps the selection of the moment it was stacked, and restores it when it is popped.
        model.undo.on('stack-item-added', (e) => {
          e.stackItem.meta.set(SELECTION_META, get().selection);
          refreshUndo();
        });
        model.undo.on('stack-item-popped', (e) => {
          const sel = e.stackItem.meta.get(SELECTION_META) as ReadonlySet<string> | undefined;
          if (sel && get().model === model) get().select([...sel].filter((id) => model.has(id)));
          refreshUndo();
        });
      }
      set({
        model,
        pageId,
        // A page opens fitted to the canvas's width.
        ...(model ? { zoomFit: true } : {}),
        selection: new Set(),
        canUndo: false,
        canRedo: false,
        save: 'saved',
        saveError: '',
      });
    },
    select: (ids, how = 'replace') => {
      const cur = get().selection;
      let next: Set<string>;
      if (how === 'replace') next = new Set(ids);
      else if (how === 'add') next = new Set([...cur, ...ids]);
      else {
        next = new Set(cur);
        for (const id of ids) {
          if (next.has(id)) next.delete(id);
          else next.add(id);
        }
      }
      if (next.size === cur.size && [...next].every((id) => cur.has(id))) return;
      set({ selection: next });
    },
    setMode: (mode) => set({ mode }),
    setZoom: (zoom) => set({ zoom: clampZoom(zoom), zoomFit: false }),
    zoomBy: (dir) => set({ zoom: nextZoom(get().zoom, dir), zoomFit: false }),
    zoomToFit: () => set({ zoomFit: true }),
    setFitZoom: (zoom) => {
      if (get().zoomFit && zoom !== get().zoom) set({ zoom: clampZoom(zoom) });
    },
    setDraggingKind: (draggingKind) => set({ draggingKind }),
    setSave: (save, saveError = '') => set({ save, saveError }),

    applyWidgetPatch: (id, patch) => {
      const model = w();
      if (!model?.has(id)) return;
      // Typing bursts merge through the undo manager's capture timeout: no stopCapturing here.
      model.doc.transact(() => {
        if (patch.props) patchProps(model.doc, id, patch.props);
        if ('events' in patch) setWidgetField(model.doc, id, 'events', patch.events);
        if ('name' in patch) setWidgetField(model.doc, id, 'name', patch.name || undefined);
      }, LOCAL_ORIGIN);
      refreshUndo();
    },
    applyPagePatch: (patch) => {
      const model = w();
      if (!model) return;
      model.doc.transact(() => {
        for (const [k, v] of Object.entries(patch))
          setPageField(model.doc, k as keyof PagePatch, v as unknown);
      }, LOCAL_ORIGIN);
      refreshUndo();
    },
    setField: (id, key, value) => step((model) => setWidgetField(model.doc, id, key, value)),
    setLayouts: (positions, mode) => step((model) => setLayouts(model.doc, mode ?? get().mode, positions)),
    addWidget: (kind, parent, pos, index, others) => {
      const model = w();
      const def = getWidget(kind);
      if (!model || !def) return undefined;
      const layout =
        model.pageField<Record<Mode, { cols: number; rowHeight: number; width?: number }>>('layout');
      const size = (mode: Mode) =>
        sizeToGrid(def.meta.size, { ...DEFAULT_PAGE_LAYOUT[mode], ...(layout?.[mode] ?? {}) });
      const mode = get().mode;
      const other: Mode = mode === 'pc' ? 'mobile' : 'pc';
      // The other mode gets the widget below everything already there.
      const bottom = model.children(parent).reduce((b, id) => {
        const l = model.get(id)!.layout[other];
        return Math.max(b, l.y + l.h);
      }, 0);
      const id = newWidgetId((x) => model.has(x));
      const inst: WidgetInstance = {
        id,
        kind,
        version: def.version,
        // User-visible default texts in the builder's language (stored pages keep theirs).
        props: newWidgetProps(def, currentLang()),
        layout: {
          [mode]: { x: 0, y: 0, ...size(mode), ...pos },
          [other]: { x: 0, y: bottom, ...size(other) },
        } as WidgetInstance['layout'],
        ...(def.meta.container ? { children: [] } : {}),
      };
      step((mm) =>
        mm.doc.transact(() => {
          if (others && Object.keys(others).length) setLayouts(mm.doc, mode, others);
          insertWidgets(mm.doc, [inst], parent, index);
        }, LOCAL_ORIGIN),
      );
      set({ selection: new Set([id]) });
      return id;
    },
    move: (id, parent, index) => {
      let ok = false;
      step((model) => {
        ok = moveWidget(model.doc, id, parent, index);
      });
      return ok;
    },
    moveTo: (id, parent, pos, mode = get().mode) => {
      const model = w();
      const v = model?.get(id);
      if (!model || !v || v.locked) return false;
      if (parent !== null && (parent === id || !model.has(parent) || model.ancestors(parent).includes(id)))
        return false;
      const other: Mode = mode === 'pc' ? 'mobile' : 'pc';
      const bottom = model
        .children(parent)
        .filter((s) => s !== id)
        .reduce((b, s) => {
          const l = model.get(s)!.layout[other];
          return Math.max(b, l.y + l.h);
        }, 0);
      const cols = colsOf(model, mode);
      const otherCols = colsOf(model, other);
      const keep = v.layout[other];
      let ok = false;
      step((mm) =>
        mm.doc.transact(() => {
          ok = moveWidget(mm.doc, id, parent);
          if (!ok) return;
          setLayouts(mm.doc, mode, { [id]: clampPos(pos, cols) });
          setLayouts(mm.doc, other, { [id]: clampPos({ ...keep, x: 0, y: bottom }, otherCols) });
        }, LOCAL_ORIGIN),
      );
      return ok;
    },
    remove: (ids) => {
      const model = w();
      if (!model) return;
      const list = (ids ?? topSelected(model, get().selection)).filter((id) => !model.get(id)?.locked);
      if (!list.length) return;
      step((mm) => removeWidgets(mm.doc, list));
      set({ selection: new Set() });
    },
    copy: () => {
      const model = m();
      if (!model) return undefined;
      const ids = topSelected(model, get().selection);
      if (!ids.length) return undefined;
      const data: ClipboardData = {
        tag: CLIPBOARD_TAG,
        page: get().pageId,
        widgets: ids.map((id) => model.tree(id)!),
      };
      writeClipboard(data);
      return data;
    },
    cut: () => {
      if (get().copy()) get().remove();
    },
    paste: (data) => {
      const model = w();
      const clip = data ?? readStoredClipboard();
      if (!model || !clip?.widgets.length) return [];
      const { widgets } = cloneWithNewIds(clip.widgets, (x) => model.has(x));
      // Into the single selected container, else at the root; offset when it lands on its original.
      const sel = [...get().selection];
      const target = sel.length === 1 && model.get(sel[0]!)?.container ? sel[0]! : null;
      const placed = placeGroup(widgets, siblingLayouts(model, target));
      step((mm) => insertWidgets(mm.doc, placed, target));
      const ids = placed.map((w) => w.id);
      set({ selection: new Set(ids) });
      return ids;
    },
    duplicate: () => {
      const model = w();
      if (!model) return [];
      const ids = topSelected(model, get().selection);
      if (!ids.length) return [];
      const out: string[] = [];
      // The copies of each parent's widgets move as one group below what is there (relative positions
      // kept); each copy goes right after its original in the sibling order.
      const byParent = new Map<string | null, string[]>();
      for (const id of ids) {
        const p = model.get(id)!.parent;
        const key = p !== null && model.has(p) ? p : null;
        byParent.set(key, [...(byParent.get(key) ?? []), id]);
      }
      const copies = new Map<string, WidgetInstance>();
      for (const [parent, group] of byParent) {
        const { widgets } = cloneWithNewIds(
          group.map((id) => model.tree(id)!),
          (x) => model.has(x),
        );
        const placed = placeGroup(widgets, siblingLayouts(model, parent));
        for (const [i, c] of placed.entries()) copies.set(group[i]!, c);
      }
      // The first insert under a parent takes its children from the model (as the doc holds them
      // until this transaction changes them), so a duplicate reads no other widget; a later one under
      // the same parent reads the doc, which holds the copies inserted so far.
      const touched = new Set<string | null>();
      step((mm) => {
        mm.doc.transact(() => {
          for (const id of ids) {
            const v = model.get(id)!;
            const copy = copies.get(id)!;
            const sibs = model.children(v.parent);
            const at = sibs.indexOf(id) + 1;
            insertWidgets(
              mm.doc,
              [copy],
              v.parent,
              at,
              LOCAL_ORIGIN,
              touched.has(v.parent) ? undefined : sibs,
            );
            touched.add(v.parent);
            // A copy under a parent that is gone lists at the root (childIndex's orphan rule).
            if (v.parent !== null && !model.has(v.parent)) touched.add(null);
            out.push(copy.id);
          }
        }, LOCAL_ORIGIN);
      });
      set({ selection: new Set(out) });
      return out;
    },
    nudge: (dx, dy) => {
      const model = w();
      if (!model) return;
      const mode = get().mode;
      const pos = positionsOf([...get().selection], mode);
      if (!Object.keys(pos).length) return;
      // Consecutive key presses within the capture timeout are one step, like a drag.
      model.doc.transact(
        () => setLayouts(model.doc, mode, nudgeMath(pos, dx, dy, colsOf(model, mode))),
        LOCAL_ORIGIN,
      );
      refreshUndo();
    },
    restack: (dir) => {
      const model = w();
      if (!model) return false;
      const moves = restackMoves(model, topSelected(model, get().selection), dir);
      if (!moves.length) return false;
      step((mm) =>
        mm.doc.transact(() => {
          for (const [id, parent, index] of moves) moveWidget(mm.doc, id, parent, index);
        }, LOCAL_ORIGIN),
      );
      return true;
    },
    align: (how) => {
      const mode = get().mode;
      step((model) => setLayouts(model.doc, mode, alignMath(positionsOf([...get().selection], mode), how)));
    },
    distribute: (axis) => {
      const mode = get().mode;
      step((model) =>
        setLayouts(model.doc, mode, distributeMath(positionsOf([...get().selection], mode), axis)),
      );
    },
    undo: () => {
      const model = w();
      if (!model) return;
      model.undo.stopCapturing();
      model.undo.undo();
      refreshUndo();
    },
    redo: () => {
      const model = w();
      if (!model) return;
      model.undo.redo();
      refreshUndo();
    },
    breakStep: () => m()?.undo.stopCapturing(),
  };
});

// Per-widget selection flags: one store subscription diffs the selection and wakes only the widgets
// whose flag flipped, instead of a selector per widget run on every store change (1,000 on a big page).
const selectionListeners = new Map<string, Set<() => void>>();
let unsubscribeSelection: (() => void) | null = null;

/** Subscribes to one widget's selected flag (for useSyncExternalStore). */
export function subscribeSelected(id: string, l: () => void): () => void {
  let set = selectionListeners.get(id);
  if (!set) {
    set = new Set();
    selectionListeners.set(id, set);
  }
  set.add(l);
  unsubscribeSelection ??= useDesigner.subscribe((s, prev) => {
    if (s.selection === prev.selection) return;
    for (const x of prev.selection)
      if (!s.selection.has(x)) for (const f of selectionListeners.get(x) ?? []) f();
    for (const x of s.selection)
      if (!prev.selection.has(x)) for (const f of selectionListeners.get(x) ?? []) f();
  });
  return () => {
    set.delete(l);
    if (!set.size) selectionListeners.delete(id);
    if (!selectionListeners.size) {
      unsubscribeSelection?.();
      unsubscribeSelection = null;
    }
  };
}
