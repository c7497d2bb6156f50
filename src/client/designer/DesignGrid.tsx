/**
 * The canvas's grid layer: react-grid-layout's GridItem (moves through react-draggable, resizes
 * through react-resizable) under a container of our own instead of its GridLayout. GridLayout keeps
 * a second copy of the layout and, on every change of a page of 1,000 widgets, renders twice, deep-
 * compares both copies, finds each item by a linear search (a million steps a render) and hands every
 * item a new element. Here each item is its own component that reads its box from the page model
 * (see Canvas), so an edit re-renders the items it touched, and a drag step re-renders the dragged
 * item and the placeholder only. Nothing is pushed aside while a widget moves (the canvas lets widgets
 * overlap during a drag and settles where it stops), so the layout needs no copy during a drag.
 */
import {
  type CSSProperties,
  cloneElement,
  createContext,
  type DragEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
} from 'react';
import { GridItem, type GridItemCallback } from 'react-grid-layout';
import {
  calcGridItemPosition,
  type GridDragEvent,
  type GridResizeEvent,
  type PositionStrategy,
} from 'react-grid-layout/core';
import { cellAt } from './commands.ts';

/** A box on the grid, in cells. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface GridEvents {
  /** A drag went past its threshold: the widget is moving. */
  onDragStart?(id: string, node: HTMLElement): void;
  /** A drag ended; `box` is the cell under the dragged widget's top-left corner. */
  onDragStop(id: string, box: Box, e: Event, node: HTMLElement): void;
  onResizeStop(id: string, box: Box): void;
  /** Size of what is dragged over the grid from outside (the palette), or false: not droppable. */
  dropSize(): { w: number; h: number } | false;
  onDrop(box: Box, e: DragEvent<HTMLDivElement>): void;
}

const MARGIN: [number, number] = [0, 0];
const HANDLES = ['se', 'e', 's'] as const;
const NO_HANDLES: (typeof HANDLES)[number][] = [];
const ALL_HANDLES = [...HANDLES];
const NO_LAYOUT: never[] = [];

/**
 * Marks the item a drag really moves (past the threshold) for its drag look (designer.css). GridItem
 * gives every pressed item its dragging class as the button goes down, before the pointer has moved:
 * styled by that class, each click on a widget lifted it onto a layer of its own (will-change,
 * z-index) and dropped it again at the release, a re-layering of the whole canvas twice per click.
 */
function moving(node: HTMLElement, on: boolean) {
  if (on) node.setAttribute('data-moving', '');
  else node.removeAttribute('data-moving');
}

/** The drag, resize or drop placeholder of one grid: a tiny store, so a drag step renders it alone. */
function placeholderStore() {
  let box: Box | null = null;
  let resizing = false;
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const l of listeners) l();
  };
  return {
    get: () => box,
    resizing: () => resizing,
    bottom: () => (box ? box.y + box.h : 0),
    /** Moves the placeholder; false when it stays in the same cells. */
    set(next: Box | null, isResize = false): boolean {
      if (
        next === box ||
        (next &&
          box &&
          next.x === box.x &&
          next.y === box.y &&
          next.w === box.w &&
          next.h === box.h &&
          resizing === isResize)
      )
        return false;
      box = next;
      resizing = isResize;
      emit();
      return true;
    },
    subscribe(l: () => void) {
      listeners.add(l);
      return () => {
        listeners.delete(l);
      };
    },
  };
}
type Placeholder = ReturnType<typeof placeholderStore>;

/**
 * Wakes the one item being dragged or resized when the pointer reaches other cells: GridItem draws
 * the pointer's position only when it renders, and nothing else renders it during a gesture.
 */
function stepStore() {
  let active: string | null = null;
  let n = 0;
  const listeners = new Map<string, () => void>();
  return {
    step(id: string) {
      if (active !== id) active = id;
      n++;
      listeners.get(id)?.();
    },
    end() {
      const id = active;
      active = null;
      if (id) listeners.get(id)?.();
    },
    of: (id: string) => (active === id ? n : 0),
    subscribe(id: string, l: () => void) {
      listeners.set(id, l);
      return () => {
        if (listeners.get(id) === l) listeners.delete(id);
      };
    },
  };
}
type Steps = ReturnType<typeof stepStore>;

interface GridContextValue
  extends Pick<DesignGridProps, 'width' | 'cols' | 'rowHeight' | 'strategy' | 'readOnly' | 'cancel'> {
  /** Each item's box as last rendered (the item callbacks report positions only). */
  boxes: Map<string, Box>;
  steps: Steps;
  onDragStart: GridItemCallback<GridDragEvent>;
  onDrag: GridItemCallback<GridDragEvent>;
  onDragStop: GridItemCallback<GridDragEvent>;
  onResizeStart: GridItemCallback<GridResizeEvent>;
  onResize: GridItemCallback<GridResizeEvent>;
  onResizeStop: GridItemCallback<GridResizeEvent>;
}
const GridContext = createContext<GridContextValue | null>(null);

export interface DesignGridProps {
  /** Rows the items take (the grid's drawn height, with the placeholder's). */
  rows: number;
  width: number;
  cols: number;
  rowHeight: number;
  strategy: PositionStrategy;
  readOnly: boolean;
  /** Where a drag may not start (react-draggable's `cancel` selector). */
  cancel: string;
  events: GridEvents;
  className: string;
  style?: CSSProperties;
  innerRef?: Ref<HTMLDivElement>;
  /** GridCell elements, one per item. */
  children: ReactNode;
}

/** A grid of GridCells, with drops from outside (the palette) through the HTML drag events. */
export function DesignGrid(props: DesignGridProps) {
  const { width, cols, rowHeight, strategy, readOnly, cancel } = props;
  const events = useRef(props.events);
  events.current = props.events;
  const ph = useMemo(placeholderStore, []);
  const boxes = useRef(new Map<string, Box>()).current;
  const steps = useMemo(stepStore, []);
  const handlers = useMemo(() => {
    const sized = (i: string, x: number, y: number): Box | null => {
      const b = boxes.get(i);
      return b ? { x, y, w: b.w, h: b.h } : null;
    };
    return {
      onDragStart: ((i, _x, _y, data) => {
        const b = boxes.get(i);
        if (!b) return;
        ph.set({ ...b });
        if (data.node) {
          moving(data.node, true);
          events.current.onDragStart?.(i, data.node);
        }
      }) as GridItemCallback<GridDragEvent>,
      // The item follows the pointer cell by cell, as the placeholder does (react-grid-layout's own
      // rhythm): a pointer step within the same cells draws nothing.
      onDrag: ((i, x, y) => {
        if (ph.set(sized(i, x, y))) steps.step(i);
      }) as GridItemCallback<GridDragEvent>,
      onDragStop: ((i, x, y, data) => {
        ph.set(null);
        steps.end();
        if (data.node) moving(data.node, false);
        const b = sized(i, x, y);
        if (b && data.node) events.current.onDragStop(i, b, data.e as Event, data.node);
      }) as GridItemCallback<GridDragEvent>,
      onResizeStart: ((i) => {
        const b = boxes.get(i);
        if (b) ph.set({ ...b }, true);
      }) as GridItemCallback<GridResizeEvent>,
      onResize: ((i, w, h) => {
        const b = boxes.get(i);
        if (b && ph.set({ x: b.x, y: b.y, w, h }, true)) steps.step(i);
      }) as GridItemCallback<GridResizeEvent>,
      onResizeStop: ((i, w, h) => {
        ph.set(null);
        steps.end();
        const b = boxes.get(i);
        if (b) events.current.onResizeStop(i, { x: b.x, y: b.y, w, h });
      }) as GridItemCallback<GridResizeEvent>,
    };
  }, [boxes, ph, steps]);
  const ctx = useMemo<GridContextValue>(
    () => ({ width, cols, rowHeight, strategy, readOnly, cancel, boxes, steps, ...handlers }),
    [width, cols, rowHeight, strategy, readOnly, cancel, boxes, steps, handlers],
  );

  // Palette drops: the placeholder follows the cell under the dragged tile's centre. Nested grids
  // stop the events, so a drop lands in the innermost grid under the pointer.
  const drop = useRef({ depth: 0, box: null as Box | null });
  const clearDrop = () => {
    drop.current.box = null;
    ph.set(null);
  };
  const dropHandlers = readOnly
    ? {}
    : {
        onDragEnter: (e: DragEvent<HTMLDivElement>) => {
          e.preventDefault();
          e.stopPropagation();
          drop.current.depth++;
        },
        onDragOver: (e: DragEvent<HTMLDivElement>) => {
          e.preventDefault();
          e.stopPropagation();
          const size = events.current.dropSize();
          if (!size) {
            if (drop.current.box) clearDrop();
            return;
          }
          const r = e.currentTarget.getBoundingClientRect();
          const z = strategy.scale || 1;
          const colW = width / cols;
          const box = cellAt(
            {
              left: Math.max(0, (e.clientX - r.left) / z - (size.w * colW) / 2),
              top: Math.max(0, (e.clientY - r.top) / z - (size.h * rowHeight) / 2),
            },
            { width, cols, rowHeight },
            size,
          );
          drop.current.box = box;
          ph.set(box);
        },
        onDragLeave: (e: DragEvent<HTMLDivElement>) => {
          e.preventDefault();
          e.stopPropagation();
          drop.current.depth = Math.max(0, drop.current.depth - 1);
          if (!drop.current.depth) clearDrop();
        },
        onDrop: (e: DragEvent<HTMLDivElement>) => {
          e.preventDefault();
          e.stopPropagation();
          drop.current.depth = 0;
          const box = drop.current.box;
          clearDrop();
          if (box) events.current.onDrop(box, e);
        },
      };

  const phBottom = useSyncExternalStore(ph.subscribe, ph.bottom, ph.bottom);
  const height = Math.max(props.rows, phBottom) * rowHeight;
  return (
    <div
      ref={props.innerRef}
      className={`react-grid-layout ${props.className}`}
      style={{ height, ...props.style }}
      {...dropHandlers}
    >
      <GridContext.Provider value={ctx}>{props.children}</GridContext.Provider>
      <PlaceholderBox ph={ph} ctx={ctx} />
    </div>
  );
}

function PlaceholderBox({ ph, ctx }: { ph: Placeholder; ctx: GridContextValue }) {
  const box = useSyncExternalStore(ph.subscribe, ph.get, ph.get);
  if (!box) return null;
  const pos = calcGridItemPosition(
    {
      cols: ctx.cols,
      margin: MARGIN,
      containerPadding: MARGIN,
      containerWidth: ctx.width,
      rowHeight: ctx.rowHeight,
      maxRows: Number.POSITIVE_INFINITY,
    },
    box.x,
    box.y,
    box.w,
    box.h,
  );
  return (
    <div
      className={`react-grid-item react-grid-placeholder${ph.resizing() ? ' placeholder-resizing' : ''}`}
      style={ctx.strategy.calcStyle(pos)}
    />
  );
}

export interface GridCellProps extends Box {
  id: string;
  /** Locked: stays where it is (no drag, no resize). */
  locked: boolean;
  /**
   * Resizable now (the selected widgets are): a thousand items with handles would be three thousand
   * more drag sources to mount.
   */
  resizable: boolean;
  children: ReactElement;
}

/** One item of the enclosing DesignGrid at its box; `children` should keep its identity across renders. */
export function GridCell({ id, x, y, w, h, locked, resizable, children }: GridCellProps) {
  const g = useContext(GridContext)!;
  g.boxes.set(id, { x, y, w, h });
  const { boxes, steps } = g;
  useLayoutEffect(() => () => void boxes.delete(id), [boxes, id]);
  const step = useSyncExternalStore(
    useCallback((l: () => void) => steps.subscribe(id, l), [steps, id]),
    () => steps.of(id),
    () => 0,
  );
  const canResize = resizable && !locked && !g.readOnly;
  // Handles come with the first selection and then stay (hidden while not resizable): mounting and
  // unmounting three drag sources at every selection change is work a click need not pay for.
  const hadHandles = useRef(false);
  hadHandles.current ||= canResize;
  return (
    <GridItem
      i={id}
      x={x}
      y={y}
      w={w}
      h={h}
      static={locked}
      containerWidth={g.width}
      cols={g.cols}
      rowHeight={g.rowHeight}
      margin={MARGIN}
      containerPadding={MARGIN}
      maxRows={Number.POSITIVE_INFINITY}
      isDraggable={!locked && !g.readOnly}
      isResizable={canResize}
      resizeHandles={hadHandles.current ? ALL_HANDLES : NO_HANDLES}
      isBounded={false}
      useCSSTransforms={g.strategy.type === 'transform'}
      usePercentages={false}
      positionStrategy={g.strategy}
      transformScale={g.strategy.scale}
      dragThreshold={3}
      cancel={g.cancel}
      layout={NO_LAYOUT}
      onDragStart={g.onDragStart}
      onDrag={g.onDrag}
      onDragStop={g.onDragStop}
      onResizeStart={g.onResizeStart}
      onResize={g.onResize}
      onResizeStop={g.onResizeStop}
    >
      {/* A new element per gesture step: the memoised GridItem renders, at the pointer. */}
      {step ? cloneElement(children) : children}
    </GridItem>
  );
}
