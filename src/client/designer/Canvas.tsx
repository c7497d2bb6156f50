/**
 * The design canvas: one grid per level (the page, then each container; DesignGrid over
 * react-grid-layout's items), widgets drawn by their real render inside a design-mode runtime.
 * Palette items drop through the grid's HTML drop support; a nested grid stops the event, so a drop
 * lands in the innermost container.
 */
import i18next from 'i18next';
import {
  type CSSProperties,
  createContext,
  memo,
  type MouseEvent as ReactMouseEvent,
  type PointerEvent as ReactPointerEvent,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { type Layout, type LayoutItem, useContainerWidth } from 'react-grid-layout';
import { absoluteStrategy, cloneLayout, moveElement, type PositionStrategy } from 'react-grid-layout/core';
import 'react-grid-layout/css/styles.css';
import { DraggableCore } from 'react-draggable';
import { getWidget } from '../../../widgets/index.ts';
import {
  staticRuntime,
  useRuntime,
  type WidgetRuntime,
  WidgetRuntimeProvider,
} from '../../../widgets/kit/widget-context.ts';
import { DEFAULT_PAGE_LAYOUT, type GridPos, sizeToGrid } from '../../shared/page-document.ts';
import type { Mode } from '../../shared/page-ydoc.ts';
import { CanvasMenu, contextMenuAt, type MenuAt } from './CanvasMenu.tsx';
import { PeerOutline } from './collab/PeerMarks.tsx';
import { cellAt, freeSpot } from './commands.ts';
import { type Box, DesignGrid, GridCell, type GridEvents } from './DesignGrid.tsx';
import { designEntity, useDesignData } from './design-data.ts';
import { FarItems, nearSpan, type SpanSource } from './far.ts';
import type { DocModel, WidgetView } from './model.ts';
import { warmPanelChecks } from './panel/resolver.ts';
import { revealAfterPaint, useRevealed } from './reveal.ts';
import { colsOf, fitZoom, rowHeightOf, subscribeSelected, useDesigner } from './store.ts';
import { loadKinds, useKindView } from './views.ts';

const ROOT_STYLE: CSSProperties = { minHeight: 600 };
const NESTED_STYLE: CSSProperties = { minHeight: 40 };
export const DRAG_MIME = 'application/x-lowcode-widget';

/*
 * react-draggable (under react-grid-layout's items) keeps text from being selected during a drag by
 * putting a class on <body> that a `.class *::selection` rule hangs on: adding and removing it at every
 * drag start and stop restyles the whole document, a quarter of a second on a page of 500 widgets.
 * The canvas is unselectable instead (designer.css), so the class is never needed.
 */
DraggableCore.defaultProps = { ...DraggableCore.defaultProps, enableUserSelectHack: false };

function useWidget(model: DocModel, id: string): WidgetView | undefined {
  return useSyncExternalStore(
    useCallback((l) => model.subscribeWidget(id, l), [model, id]),
    () => model.get(id),
  );
}

function useChildren(model: DocModel, parent: string | null): readonly string[] {
  return useSyncExternalStore(
    useCallback((l) => model.subscribeChildren(parent, l), [model, parent]),
    () => model.children(parent),
  );
}

/** Rows a level's widgets take in a mode (its drawn height), followed as they move. */
function useLevelRows(model: DocModel, parent: string | null, mode: Mode): number {
  return useSyncExternalStore(
    useCallback((l) => model.subscribeAny(l), [model]),
    () => {
      let rows = 0;
      for (const id of model.children(parent)) {
        const p = model.get(id)?.layout[mode];
        if (p && p.y + p.h > rows) rows = p.y + p.h;
      }
      return rows;
    },
  );
}

const runtime = staticRuntime({ mode: 'design' });

/**
 * The canvas's model and mode, shared by every widget without a store selector per widget, and which
 * top-level widgets are far from view (see far.ts).
 */
const CanvasContext = createContext<{ model: DocModel; mode: Mode; far: FarItems; project: string } | null>(
  null,
);
const useCanvas = () => useContext(CanvasContext)!;

/** Whether a top-level widget is far from view (null: a nested one, never marked). */
function useFar(far: FarItems, id: string | null): boolean {
  return useSyncExternalStore(
    useCallback((l) => (id === null ? () => {} : far.subscribe(id, l)), [far, id]),
    () => id !== null && far.isFar(id),
  );
}

/** Whether the top-level widget around (this widget or its container) is far from view. */
const FarContext = createContext(false);

function useSelected(id: string): boolean {
  return useSyncExternalStore(
    useCallback((l) => subscribeSelected(id, l), [id]),
    () => useDesigner.getState().selection.has(id),
  );
}

/** One widget's body: its real render, or a marked box for a broken one. */
const WidgetBody = memo(function WidgetBody(props: { id: string; depth: number; width: number }) {
  const { model, mode } = useCanvas();
  const v = useWidget(model, props.id);
  if (!v) return null;
  const def = getWidget(v.kind);
  if (!def || v.broken)
    return (
      <div className="dz-broken" title={v.brokenReason}>
        {v.kind}: {v.brokenReason ?? 'unknown kind'}
      </div>
    );
  const cols = colsOf(model, mode);
  return (
    <WidgetContent
      id={v.id}
      kind={v.kind}
      props={v.props}
      hidden={!!v.hidden}
      container={v.container}
      depth={props.depth}
      nestedWidth={v.container ? (props.width * v.layout[mode].w) / cols : 0}
    />
  );
});

/**
 * The widget's real render. Memoised on what it shows: a move, a resize of a leaf or a change of the
 * name re-renders the frame around it, not the render (the model keeps the props object across them).
 * Until its view is due (near the viewport, or the page filled in) a leaf shows a light placeholder;
 * a due view whose kind's code is still loading shows a loading one, and draws as the code comes in.
 */
const WidgetContent = memo(function WidgetContent(props: {
  id: string;
  kind: string;
  props: WidgetView['props'];
  hidden: boolean;
  container: boolean;
  depth: number;
  nestedWidth: number;
}) {
  const def = getWidget(props.kind)!;
  const { model } = useCanvas();
  // Whether it came in a bulk addition is read once, when it mounts.
  const [inBulk] = useState(() => model.addedInBulk(props.id));
  const { revealed, ref } = useRevealed<HTMLDivElement>(model, useContext(FarContext), inBulk);
  const view = useKindView(def, revealed || props.container);
  if (!revealed && !props.container)
    return (
      <div ref={ref} className="dz-deferred">
        {def.meta.title[i18next.language === 'zh' ? 'zh' : 'en']}
      </div>
    );
  if ('error' in view)
    return (
      <div className="dz-broken" title={view.error}>
        {props.kind}: {view.error}
      </div>
    );
  if (!('view' in view)) return <div className="dz-loading">{props.kind}</div>;
  const Render = view.view;
  const entity = designEntity(props.kind, props.props);
  const body = (
    <Render id={props.id} props={props.props}>
      {props.container ? (
        <NestedGrid parent={props.id} depth={props.depth + 1} fallbackWidth={props.nestedWidth} />
      ) : undefined}
    </Render>
  );
  return (
    <Suspense fallback={<div className="dz-loading">{props.kind}</div>}>
      <div
        className={`dz-content${props.container ? ' dz-container' : ''}${props.hidden ? ' dz-hidden' : ''}`}
      >
        {entity ? (
          <DesignData id={props.id} entity={entity}>
            {body}
          </DesignData>
        ) : (
          body
        )}
      </div>
    </Suspense>
  );
});

/**
 * A bound table's rows and columns in design mode (design-data.ts): only widgets bound to a table get
 * this runtime around their render; the others read the canvas's empty static one.
 */
function DesignData(props: { id: string; entity: string; children: React.ReactNode }) {
  const { project } = useCanvas();
  const data = useDesignData(project, props.entity);
  const outer = useRuntime();
  const { id } = props;
  const rt = useMemo<WidgetRuntime>(
    () => ({ ...outer, data: (w) => (w === id ? data : outer.data(w)) }),
    [outer, id, data],
  );
  return project ? (
    <WidgetRuntimeProvider runtime={rt}>{props.children}</WidgetRuntimeProvider>
  ) : (
    props.children
  );
}

/**
 * One widget on its grid: its box from the model (re-rendered when the widget changes; a move of
 * another widget never reaches it) around an element kept across renders (react-grid-layout's
 * GridItem is memoised on it), with selection chrome and resize handles while it is selected.
 */
const CanvasItem = memo(function CanvasItem(props: { id: string; depth: number; width: number }) {
  const { id, depth, width } = props;
  const { model, mode, far: farItems } = useCanvas();
  const v = useWidget(model, id);
  const selected = useSelected(id);
  const far = useFar(farItems, depth === 0 ? id : null);
  const kind = v?.kind;
  const el = useMemo(
    () => (
      // Canvas items are picked by mouse; the layers tree and shortcuts serve the keyboard.
      <div
        data-wid={id}
        data-kind={kind}
        data-far={far ? '' : undefined}
        className={`dz-item dz-d${depth}`}
        onPointerDown={selectOnPress}
      >
        {depth === 0 ? (
          <FarContext.Provider value={far}>
            <WidgetBody id={id} depth={depth} width={width} />
          </FarContext.Provider>
        ) : (
          <WidgetBody id={id} depth={depth} width={width} />
        )}
        {selected ? <SelectedChrome id={id} /> : null}
        <PeerOutline id={id} />
      </div>
    ),
    [id, kind, depth, width, selected, far],
  );
  if (!v) return null;
  const p = v.layout[mode];
  return (
    <GridCell id={id} x={p.x} y={p.y} w={p.w} h={p.h} locked={!!v.locked} resizable={selected}>
      {el}
    </GridCell>
  );
});

function SelectedChrome(props: { id: string }) {
  const { model } = useCanvas();
  const v = useWidget(model, props.id);
  if (!v) return null;
  return (
    <div className="dz-chrome">
      <span className="dz-tag">{v.name || v.kind}</span>
    </div>
  );
}

function NestedGrid(props: { parent: string; depth: number; fallbackWidth: number }) {
  const { width, containerRef } = useContainerWidth({ initialWidth: props.fallbackWidth });
  return (
    <div ref={containerRef} className="dz-nested" data-parent={props.parent}>
      <GridLevel parent={props.parent} depth={props.depth} width={width} />
    </div>
  );
}

interface LevelProps {
  parent: string | null;
  depth: number;
  width: number;
}

export function GridLevel({ parent, depth, width }: LevelProps) {
  const model = useDesigner((s) => s.model)!;
  const mode = useDesigner((s) => s.mode);
  const ids = useChildren(model, parent);
  const rows = useLevelRows(model, parent, mode);
  const cols = colsOf(model, mode);
  const rowHeight = rowHeightOf(model, mode);

  const zoom = useDesigner((s) => s.zoom);
  // Not createScaledStrategy: its drag start position ignores where the grid sits on screen (it
  // measures from the viewport's corner); the default maths, given the scale, measure from the grid.
  const strategy = useMemo<PositionStrategy>(
    () => (zoom === 1 ? absoluteStrategy : { ...absoluteStrategy, scale: zoom }),
    [zoom],
  );

  /** A widget's new box in this grid, with what it now covers pushed down (one undo step). */
  const commit = useCallback(
    (id: string, box: Box) => {
      const layout: LayoutItem[] = model.children(parent).map((k) => {
        const v = model.get(k)!;
        const p = k === id ? box : v.layout[mode];
        return { i: k, x: p.x, y: p.y, w: p.w, h: p.h, static: !!v.locked };
      });
      const next = settle(layout, id, cols);
      const changed: Record<string, GridPos> = {};
      for (const it of next) {
        const v = model.get(it.i);
        if (!v) continue;
        const p = v.layout[mode];
        if (p.x !== it.x || p.y !== it.y || p.w !== it.w || p.h !== it.h)
          changed[it.i] = { x: it.x, y: it.y, w: it.w, h: it.h };
      }
      if (Object.keys(changed).length) useDesigner.getState().setLayouts(changed, mode);
    },
    [model, mode, parent, cols],
  );

  const events: GridEvents = {
    onDragStart: (_id, node) => markHosts(node, true),
    /** A drag that ends over another grid (a container's, or the page's) moves the widget into it. */
    onDragStop: (id, box, e, node) => {
      markHosts(node, false);
      const target = gridUnder(e, node);
      if (!target || target.parent === parent) {
        commit(id, box);
        return;
      }
      const st = useDesigner.getState();
      const rect = node.getBoundingClientRect();
      const z = st.zoom;
      const grid = target.grid.getBoundingClientRect();
      const at = cellAt(
        { left: (rect.left - grid.left) / z, top: (rect.top - grid.top) / z },
        { width: grid.width / z, cols, rowHeight },
        { w: box.w, h: box.h },
      );
      const others = model
        .children(target.parent)
        .filter((k) => k !== id)
        .map((k) => model.get(k)!.layout[mode]);
      if (!st.moveTo(id, target.parent, freeSpot(at, others), mode)) commit(id, box);
    },
    onResizeStop: commit,
    dropSize: () => {
      const kind = useDesigner.getState().draggingKind;
      const def = kind ? getWidget(kind) : undefined;
      if (!def) return false;
      const pageLayout =
        model.pageField<Record<Mode, { cols: number; rowHeight: number; width?: number }>>('layout');
      const size = sizeToGrid(def.meta.size, { ...DEFAULT_PAGE_LAYOUT[mode], ...(pageLayout?.[mode] ?? {}) });
      return { w: Math.min(cols, size.w), h: size.h };
    },
    onDrop: (box) => {
      const st = useDesigner.getState();
      const kind = st.draggingKind;
      st.setDraggingKind(null);
      if (!kind) return;
      // Lands where dropped, or just below the widgets it would cover.
      const others = model.children(parent).map((k) => model.get(k)!.layout[mode]);
      st.addWidget(kind, parent, freeSpot(box, others));
    },
  };

  const children = useMemo(
    () => ids.map((id) => <CanvasItem key={id} id={id} depth={depth} width={width} />),
    [ids, depth, width],
  );
  // A read-only session (a reviewer, a demoted builder) can select and look, but not move anything.
  const readOnly = useDesigner((s) => s.readOnly);

  return (
    <DesignGrid
      className={`dz-grid dz-grid-d${depth}`}
      rows={rows}
      width={width}
      cols={cols}
      rowHeight={rowHeight}
      strategy={strategy}
      readOnly={readOnly}
      cancel={`.dz-d${depth + 1}, .dz-nodrag`}
      events={events}
      style={depth === 0 ? ROOT_STYLE : NESTED_STYLE}
    >
      {children}
    </DesignGrid>
  );
}

/**
 * Marks the containers around a dragged widget (their item, content and nested grid boxes) so they
 * do not clip it while it is dragged out of them (a class, not a :has() rule, which every DOM change
 * on a page of 1,000 widgets would have to re-check).
 */
function markHosts(node: HTMLElement, on: boolean) {
  for (let el = node.parentElement; el && !el.classList.contains('dz-page'); el = el.parentElement)
    if (
      el.classList.contains('dz-item') ||
      el.classList.contains('dz-content') ||
      el.classList.contains('dz-nested')
    )
      el.classList.toggle('dz-drag-host', on);
}

/** The layout with what item `id` covers pushed down out of its way (react-grid-layout's own rule). */
function settle(layout: Layout, id: string, cols: number): Layout {
  const copy = cloneLayout(layout);
  const l = copy.find((it) => it.i === id);
  if (!l) return layout;
  const { x, y } = l;
  // moveElement skips a move to where the item already is: start it one row off.
  (l as { y: number }).y = y + 1;
  return moveElement(copy, l, x, y, true, false, null, cols, false);
}

/**
 * The innermost grid under the pointer at the end of a drag, other than the dragged widget's own
 * (its nested grid rides along under the pointer): the page's (parent null) or a container's.
 */
function gridUnder(e: Event, node: HTMLElement): { parent: string | null; grid: HTMLElement } | null {
  const pt = pointOf(e);
  if (!pt) return null;
  for (const el of document.elementsFromPoint(pt.x, pt.y)) {
    // The dragged widget and the grid's drop placeholder ride along under the pointer.
    if (node.contains(el) || el.closest('.react-grid-placeholder')) continue;
    const host = el.closest<HTMLElement>('.dz-nested, .dz-page');
    if (!host || host.closest('.react-draggable-dragging')) continue;
    const grid = host.querySelector<HTMLElement>(':scope > .dz-grid');
    if (!grid) return null;
    return { parent: host.classList.contains('dz-nested') ? host.dataset.parent! : null, grid };
  }
  return null;
}

function pointOf(e: Event): { x: number; y: number } | null {
  if (typeof MouseEvent !== 'undefined' && e instanceof MouseEvent) return { x: e.clientX, y: e.clientY };
  const t = (e as TouchEvent).changedTouches?.[0];
  return t ? { x: t.clientX, y: t.clientY } : null;
}

/**
 * A widget is selected as the button goes down (as drawing tools do), not at the click: the click
 * comes with the button's release, a frame or more later, and the selection showed only then. The
 * innermost widget under the pointer takes it (a press on a nested widget is not its container's).
 */
function selectOnPress(e: ReactPointerEvent<HTMLDivElement>) {
  if (e.button !== 0 || (e.target as Element).closest('.dz-item') !== e.currentTarget) return;
  const id = e.currentTarget.dataset.wid;
  if (!id) return;
  const how = e.shiftKey || e.ctrlKey || e.metaKey ? 'toggle' : 'replace';
  useDesigner.getState().select([id], how);
}

/** The page's drawn height (unscaled), followed as widgets move, for the zoomed canvas's scroll size. */
function useHeight(el: React.RefObject<HTMLDivElement | null>, mounted: boolean): number {
  const [h, setH] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the page node appears once the model is set
  useEffect(() => {
    const node = el.current;
    if (!node || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setH(node.offsetHeight));
    ro.observe(node);
    setH(node.offsetHeight);
    return () => ro.disconnect();
  }, [el, mounted]);
  return h;
}

/**
 * The top-level widgets far from view (see far.ts), followed as the canvas scrolls, resizes or zooms
 * and as widgets move. Positions come from the grid boxes, so nothing is measured per widget.
 */
function useFarItems(
  model: DocModel | null,
  mode: Mode,
  zoom: number,
  scroller: React.RefObject<HTMLDivElement | null>,
  page: React.RefObject<HTMLDivElement | null>,
): FarItems | null {
  const far = useMemo(() => {
    if (!model) return null;
    const spans: SpanSource = (visit) => {
      const rowHeight = rowHeightOf(model, mode);
      for (const id of model.children(null)) {
        const p = model.get(id)?.layout[mode];
        if (p) visit(id, p.y * rowHeight, (p.y + p.h) * rowHeight);
      }
    };
    // Until the canvas is laid out: the top of the page in a window-high box.
    const guess = nearSpan({ pageTop: 0, height: window.innerHeight, zoom });
    return new FarItems(spans, guess);
  }, [model, mode, zoom]);
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!far || !model || !box) return;
    const span = () => {
      const top = (page.current?.getBoundingClientRect().top ?? 0) - box.getBoundingClientRect().top;
      return nearSpan({ pageTop: top - box.clientTop, height: box.clientHeight, zoom });
    };
    far.update(span());
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        far.update(span());
      });
    };
    box.addEventListener('scroll', onScroll, { passive: true });
    const ro = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(onScroll);
    ro?.observe(box);
    // Widgets move, and the page's row height may change.
    const stopWidgets = model.subscribeAny(() => far.update());
    const stopPage = model.subscribePage(() => far.update());
    return () => {
      box.removeEventListener('scroll', onScroll);
      ro?.disconnect();
      cancelAnimationFrame(frame);
      stopWidgets();
      stopPage();
    };
  }, [far, model, zoom, scroller, page]);
  return far;
}

/**
 * Fit to width: while it is on, the zoom is the one at which the page's width fits the canvas area,
 * worked out when the page opens, the mode or the page's width changes, and the area resizes (the
 * window, a side panel). The scroll box keeps its scrollbar's gutter, so a page that grows taller
 * never changes the width it fits.
 */
function useFitZoom(scroller: React.RefObject<HTMLDivElement | null>, width: number, mounted: boolean) {
  const on = useDesigner((s) => s.zoomFit);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the scroll box appears once the model is set
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!on || !box) return;
    const refit = () => {
      const cs = getComputedStyle(box);
      const inner = box.clientWidth - Number.parseFloat(cs.paddingLeft) - Number.parseFloat(cs.paddingRight);
      useDesigner.getState().setFitZoom(fitZoom(inner, width));
    };
    refit();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(refit);
    ro.observe(box);
    return () => ro.disconnect();
  }, [on, width, scroller, mounted]);
}

/** The page canvas with box selection on its background. */
export function Canvas(props: { project?: string }) {
  const project = props.project ?? '';
  const model = useDesigner((s) => s.model);
  const mode = useDesigner((s) => s.mode);
  const zoom = useDesigner((s) => s.zoom);
  const pageLayout = model?.pageField<Record<Mode, { width?: number }>>('layout');
  const width = pageLayout?.[mode]?.width ?? DEFAULT_PAGE_LAYOUT[mode].width;
  const [box, setBox] = useState<{ x0: number; y0: number; x1: number; y1: number } | null>(null);
  const [menu, setMenu] = useState<MenuAt | null>(null);
  const closeMenu = useCallback(() => setMenu(null), []);
  const frame = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const height = useHeight(frame, !!model);
  const far = useFarItems(model, mode, zoom, scroller, frame);
  useFitZoom(scroller, width, !!model);
  const ctx = useMemo(
    () => (model && far ? { model, mode, far, project } : null),
    [model, mode, far, project],
  );
  // The code of every kind on the page starts loading with the first render (not one by one as
  // widgets mount); widgets near the viewport draw their view as soon as it is in, the rest once every
  // kind's code is in and the first views have painted.
  const kinds = useMemo(() => new Set(model?.list().map((w) => w.kind)), [model]);
  useMemo(() => void loadKinds(kinds), [kinds]);
  useEffect(() => {
    if (!model) return;
    let cancel: (() => void) | undefined;
    let live = true;
    void loadKinds(kinds).then(() => {
      // Once the canvas is filled in, the panels' checks compile in idle time (see warmPanelChecks).
      if (live) cancel = revealAfterPaint(model, warmPanelChecks);
    });
    return () => {
      live = false;
      cancel?.();
    };
  }, [model, kinds]);

  const onMouseDown = (e: ReactMouseEvent<HTMLDivElement>) => {
    const t = e.target as HTMLElement;
    if (e.button !== 0 || t.closest('.dz-item') || !frame.current) return;
    const r = frame.current.getBoundingClientRect();
    const start = { x0: e.clientX - r.left, y0: e.clientY - r.top };
    let moved = false;
    const onMove = (ev: MouseEvent) => {
      moved = true;
      setBox({ ...start, x1: ev.clientX - r.left, y1: ev.clientY - r.top });
    };
    const onUp = (ev: MouseEvent) => {
      window.removeEventListener('mousemove', onMove);
      window.removeEventListener('mouseup', onUp);
      setBox(null);
      const additive = ev.shiftKey || ev.ctrlKey || ev.metaKey;
      if (!moved) {
        if (!additive) useDesigner.getState().select([]);
        return;
      }
      const left = r.left + Math.min(start.x0, ev.clientX - r.left);
      const right = r.left + Math.max(start.x0, ev.clientX - r.left);
      const top = r.top + Math.min(start.y0, ev.clientY - r.top);
      const bottom = r.top + Math.max(start.y0, ev.clientY - r.top);
      const hits: string[] = [];
      // Only the top level: a box drawn on the page picks whole widgets, containers with their content.
      for (const el of frame.current?.querySelectorAll<HTMLElement>('.dz-d0') ?? []) {
        const b = el.getBoundingClientRect();
        if (b.left < right && b.right > left && b.top < bottom && b.bottom > top) hits.push(el.dataset.wid!);
      }
      useDesigner.getState().select(hits, additive ? 'add' : 'replace');
    };
    window.addEventListener('mousemove', onMove);
    window.addEventListener('mouseup', onUp);
  };

  if (!model) return null;
  // Zoom scales the drawn page (a CSS transform, so every grid keeps its own pixel maths and
  // react-grid-layout turns pointer moves back into unscaled ones); the box around it takes the scaled
  // size so the scroll area fits. The selection box is drawn inside the page: screen px / zoom.
  const page = (
    // biome-ignore lint/a11y/noStaticElementInteractions: box selection by mouse; the keyboard has select-all
    <div
      ref={frame}
      className={`dz-page dz-mode-${mode}`}
      style={zoom === 1 ? { width } : { width, transform: `scale(${zoom})`, transformOrigin: '0 0' }}
      data-testid="canvas"
      data-zoom={zoom}
      onMouseDown={onMouseDown}
    >
      <GridLevel parent={null} depth={0} width={width} />
      {box ? (
        <div
          className="dz-box"
          data-testid="select-box"
          style={{
            left: Math.min(box.x0, box.x1) / zoom,
            top: Math.min(box.y0, box.y1) / zoom,
            width: Math.abs(box.x1 - box.x0) / zoom,
            height: Math.abs(box.y1 - box.y0) / zoom,
          }}
        />
      ) : null}
    </div>
  );
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the context menu's actions are on the toolbar and in the shortcuts for the keyboard
    <div
      ref={scroller}
      className="dz-scroll"
      data-testid="canvas-scroll"
      onContextMenu={(e) => setMenu(contextMenuAt(e))}
    >
      <CanvasContext.Provider value={ctx}>
        <WidgetRuntimeProvider runtime={runtime}>
          {/* Always the same tree (at 100 % too): a change of zoom never mounts the page's widgets anew. */}
          <div
            className="dz-zoom"
            style={zoom === 1 ? { width } : { width: width * zoom, height: height * zoom }}
          >
            {page}
          </div>
        </WidgetRuntimeProvider>
      </CanvasContext.Provider>
      {menu ? <CanvasMenu at={menu} onClose={closeMenu} /> : null}
    </div>
  );
}
