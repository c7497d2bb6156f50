/**
 * A data view's header cell with a handle on its right edge: drag it (or focus it and press the
 * arrow keys) to make the column narrower or wider. The column follows the pointer (once a frame);
 * when the drag ends the view keeps the width on this device with the columns' order and visibility
 * (view-settings.ts).
 */
import { type PointerEvent, type ThHTMLAttributes, useRef } from 'react';

export const MIN_WIDTH = 40;
export const MAX_WIDTH = 2000;
/** How far one arrow key press moves the edge. */
const STEP = 16;

export const clampWidth = (w: number) => Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, Math.round(w)));

type CellProps = ThHTMLAttributes<HTMLTableCellElement> & {
  /** `done`: the drag ended (keep it); otherwise the column follows the pointer for now. */
  onResize?: (width: number, done: boolean) => void;
  /** The column's name, for the handle's label. */
  resizeLabel?: string;
  /**
   * The column's width as the view sets it, for the handle's value: read from the cell while
   * rendering, it forced a layout of the whole page for each header cell the table redrew.
   */
  resizeWidth?: number;
};

export function ResizableHeaderCell({ onResize, resizeLabel, resizeWidth, ...rest }: CellProps) {
  const th = useRef<HTMLTableCellElement>(null);
  if (!onResize) return <th {...rest} />;
  const width = () => th.current?.getBoundingClientRect().width ?? 0;
  const start = (e: PointerEvent<HTMLSpanElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    const handle = e.currentTarget;
    const from = e.clientX;
    const w0 = width();
    handle.setPointerCapture?.(e.pointerId);
    handle.classList.add('dv-resizing');
    let frame = 0;
    let x = from;
    const move = (ev: globalThis.PointerEvent) => {
      x = ev.clientX;
      frame ||= requestAnimationFrame(() => {
        frame = 0;
        onResize(clampWidth(w0 + x - from), false);
      });
    };
    const end = (ev: globalThis.PointerEvent) => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', end);
      handle.removeEventListener('pointercancel', end);
      handle.classList.remove('dv-resizing');
      cancelAnimationFrame(frame);
      // Let go: kept; cancelled (the pointer was taken away): back to where it was.
      onResize(clampWidth(ev.type === 'pointerup' ? w0 + ev.clientX - from : w0), true);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', end);
    handle.addEventListener('pointercancel', end);
  };
  return (
    <th {...rest} ref={th}>
      {rest.children}
      {/* biome-ignore lint/a11y/useSemanticElements: a column edge is a focusable separator, not an <hr> */}
      <span
        className="dv-resize"
        role="separator"
        aria-orientation="vertical"
        aria-label={resizeLabel}
        aria-valuenow={resizeWidth === undefined ? undefined : Math.round(resizeWidth)}
        aria-valuemin={MIN_WIDTH}
        aria-valuemax={MAX_WIDTH}
        tabIndex={0}
        data-testid="col-resize"
        onPointerDown={start}
        // The header's own click sorts: a click on the edge does not.
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
          e.preventDefault();
          e.stopPropagation();
          onResize(clampWidth(width() + (e.key === 'ArrowLeft' ? -STEP : STEP)), true);
        }}
      />
    </th>
  );
}
