/**
 * The design canvas: one react-grid-layout grid per level (the page, then each container), widgets
 * drawn by their real render inside a design-mode runtime. Palette items drop through the grid's own
 * HTML drop support; a nested grid stops the event, so a drop lands in the innermost container.
 */
import {
  type CSSProperties,
  memo,
  type MouseEvent as ReactMouseEvent,
  Suspense,
  useCallback,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { GridLayout, type Layout, type LayoutItem, noCompactor, useContainerWidth } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import { getWidget } from '../../../widgets/index.ts';
import { DEFAULT_PAGE_LAYOUT, type GridPos, sizeToGrid } from '../../../widgets/restore.ts';
import type { Mode } from '../../shared/page-ydoc.ts';
import { staticRuntime, WidgetRuntimeProvider } from '../runtime/widget-context.ts';
import { PeerOutline } from './collab/PeerMarks.tsx';
import { freeSpot } from './commands.ts';
import type { DocModel, WidgetView } from './model.ts';
import { colsOf, useDesigner } from './store.ts';

const MARGIN: [number, number] = [0, 0];
const PADDING: [number, number] = [0, 0];
const RESIZE = { enabled: true, handles: ['se', 'e', 's'] as const };
const ROOT_STYLE: CSSProperties = { minHeight: 600 };
const NESTED_STYLE: CSSProperties = { minHeight: 40 };
export const DRAG_MIME = 'application/x-lowcode-widget';

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

/** The layout of a level in a mode; returns the previous array when nothing of it changed. */
function useLevelLayout(model: DocModel, parent: string | null, mode: Mode): Layout {
  const prev = useRef<LayoutItem[]>([]);
  const compute = useCallback(() => {
    const ids = model.children(parent);
    const old = prev.current;
    let same = old.length === ids.length;
    const next: LayoutItem[] = ids.map((id, i) => {
      const v = model.get(id)!;
      const p = v.layout[mode];
      const o = old[i];
      const locked = !!v.locked;
      if (
        o &&
        o.i === id &&
        o.x === p.x &&
        o.y === p.y &&
        o.w === p.w &&
        o.h === p.h &&
        !!o.static === locked
      )
        return o;
      same = false;
      return { i: id, x: p.x, y: p.y, w: p.w, h: p.h, static: locked };
    });
    if (!same) prev.current = next;
    return prev.current;
  }, [model, parent, mode]);
  return useSyncExternalStore(
    useCallback((l) => model.subscribeAny(l), [model]),
    compute,
  );
}

const runtime = staticRuntime({ mode: 'design' });

/** One widget's body: its real render, or a marked box for a broken one. */
const WidgetBody = memo(function WidgetBody(props: { id: string; depth: number; width: number }) {
  const model = useDesigner((s) => s.model)!;
  const v = useWidget(model, props.id);
  const mode = useDesigner((s) => s.mode);
  if (!v) return null;
  const def = getWidget(v.kind);
  if (!def || v.broken)
    return (
      <div className="dz-broken" title={v.brokenReason}>
        {v.kind}: {v.brokenReason ?? 'unknown kind'}
      </div>
    );
  const Render = def.render;
  const cols = colsOf(model, mode);
  const inner = v.container ? (
    <NestedGrid
      parent={v.id}
      depth={props.depth + 1}
      fallbackWidth={(props.width * v.layout[mode].w) / cols}
    />
  ) : undefined;
  return (
    <Suspense fallback={<div className="dz-loading">{v.kind}</div>}>
      <div className={`dz-content${v.container ? ' dz-container' : ''}${v.hidden ? ' dz-hidden' : ''}`}>
        <Render id={v.id} props={v.props}>
          {inner}
        </Render>
      </div>
    </Suspense>
  );
});

/** Selection chrome and name tag of one widget; re-renders only when its selection state flips. */
const Chrome = memo(function Chrome(props: { id: string }) {
  const selected = useDesigner((s) => s.selection.has(props.id));
  const model = useDesigner((s) => s.model)!;
  const v = useWidget(model, props.id);
  if (!selected || !v) return null;
  return (
    <div className="dz-chrome">
      <span className="dz-tag">{v.name || v.kind}</span>
    </div>
  );
});

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
  const layout = useLevelLayout(model, parent, mode);
  const cols = colsOf(model, mode);
  const rowHeight =
    model.pageField<Record<Mode, { rowHeight?: number }>>('layout')?.[mode]?.rowHeight ??
    DEFAULT_PAGE_LAYOUT[mode].rowHeight;

  const commit = useCallback(
    (next: Layout) => {
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
    [model, mode],
  );

  const onDragOver = useCallback(() => {
    const kind = useDesigner.getState().draggingKind;
    const def = kind ? getWidget(kind) : undefined;
    if (!def) return false;
    const pageLayout =
      model.pageField<Record<Mode, { cols: number; rowHeight: number; width?: number }>>('layout');
    const size = sizeToGrid(def.meta.size, { ...DEFAULT_PAGE_LAYOUT[mode], ...(pageLayout?.[mode] ?? {}) });
    return { w: Math.min(cols, size.w), h: size.h };
  }, [model, mode, cols]);

  const onDrop = useCallback(
    (_next: Layout, item: LayoutItem | undefined) => {
      const st = useDesigner.getState();
      const kind = st.draggingKind;
      st.setDraggingKind(null);
      if (!kind || !item) return;
      // Lands where dropped, or just below the widgets it would cover.
      const others = model.children(parent).map((id) => model.get(id)!.layout[mode]);
      const pos = freeSpot({ x: item.x, y: item.y, w: item.w, h: item.h }, others);
      st.addWidget(kind, parent, pos);
    },
    [parent, model, mode],
  );

  const children = useMemo(
    () =>
      ids.map((id) => (
        // biome-ignore lint/a11y/noStaticElementInteractions: canvas items are picked by mouse; the layers tree and shortcuts serve the keyboard
        // biome-ignore lint/a11y/useKeyWithClickEvents: as above
        <div
          key={id}
          data-wid={id}
          data-kind={model.get(id)?.kind}
          className={`dz-item dz-d${depth}`}
          onClick={selectOnClick}
        >
          <WidgetBody id={id} depth={depth} width={width} />
          <Chrome id={id} />
          <PeerOutline id={id} />
        </div>
      )),
    [ids, depth, width, model],
  );

  // Stable config objects: react-grid-layout memoises its items on their props, so a fresh object per
  // render would re-render every item of the level on any change.
  const gridConfig = useMemo(
    () => ({ cols, rowHeight, margin: MARGIN, containerPadding: PADDING }),
    [cols, rowHeight],
  );
  const dragConfig = useMemo(
    () => ({ enabled: true, cancel: `.dz-d${depth + 1}, .dz-nodrag`, threshold: 3 }),
    [depth],
  );
  const dropConfig = useMemo(
    () => ({ enabled: true, defaultItem: { w: 10, h: 4 }, onDragOver }),
    [onDragOver],
  );
  const style = depth === 0 ? ROOT_STYLE : NESTED_STYLE;

  return (
    <GridLayout
      className={`dz-grid dz-grid-d${depth}`}
      width={width}
      layout={layout}
      gridConfig={gridConfig}
      dragConfig={dragConfig}
      resizeConfig={RESIZE}
      dropConfig={dropConfig}
      compactor={noCompactor}
      autoSize
      onDragStop={commit}
      onResizeStop={commit}
      onDrop={onDrop}
      style={style}
    >
      {children}
    </GridLayout>
  );
}

function selectOnClick(e: ReactMouseEvent<HTMLDivElement>) {
  e.stopPropagation();
  const id = e.currentTarget.dataset.wid;
  if (!id) return;
  const how = e.shiftKey || e.ctrlKey || e.metaKey ? 'toggle' : 'replace';
  useDesigner.getState().select([id], how);
}

/** The page canvas with box selection on its background. */
export function Canvas() {
  const model = useDesigner((s) => s.model);
  const mode = useDesigner((s) => s.mode);
  const pageLayout = model?.pageField<Record<Mode, { width?: number }>>('layout');
  const width = pageLayout?.[mode]?.width ?? DEFAULT_PAGE_LAYOUT[mode].width;
  const [box, setBox] = useState<{ x0: number; y0: number; x1: number; y1: number } | null>(null);
  const frame = useRef<HTMLDivElement>(null);

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
  return (
    <div className="dz-scroll" data-testid="canvas-scroll">
      <WidgetRuntimeProvider runtime={runtime}>
        {/* biome-ignore lint/a11y/noStaticElementInteractions: box selection by mouse; the keyboard has select-all */}
        <div
          ref={frame}
          className={`dz-page dz-mode-${mode}`}
          style={{ width }}
          data-testid="canvas"
          onMouseDown={onMouseDown}
        >
          <GridLevel parent={null} depth={0} width={width} />
          {box ? (
            <div
              className="dz-box"
              data-testid="select-box"
              style={{
                left: Math.min(box.x0, box.x1),
                top: Math.min(box.y0, box.y1),
                width: Math.abs(box.x1 - box.x0),
                height: Math.abs(box.y1 - box.y0),
              }}
            />
          ) : null}
        </div>
      </WidgetRuntimeProvider>
    </div>
  );
}
