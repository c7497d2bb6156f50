/**
 * A grid of widget boxes (the page's, or a container's), laid out from their per-mode positions. The
 * page's top grid draws the widgets of the first one and a half screens in its first commit and the
 * rest right after the first paint (`data-deferred` meanwhile).
 *
 * The grid and each of its cells are memoised: a widget renders when its own inputs change (its
 * instance, its store slice, the page's context), not each time something above it does. Without
 * that, every widget of a 200-widget page rendered three to four times on the way to the page's
 * last widget drawn: once more when the deferred rest arrived, and again on each re-render of the
 * renderer (its `busy` flag flips as the data widgets load).
 */
import { memo, useEffect, useLayoutEffect, useState } from 'react';
import { getWidget } from '../../../widgets/registry.ts';
import type { WidgetInstance } from '../../shared/page-document.ts';
import { boxStyle, firstScreenPx, type GridGeometry, type PageMode, rowsOf } from './geometry.ts';
import { usePageContext } from './page-context.ts';
import { markPageComplete } from './timing.ts';
import { WidgetBoundary } from './WidgetBoundary.tsx';
import { WidgetBox } from './WidgetBox.tsx';

export const Grid = memo(function Grid({
  widgets,
  g,
  top = false,
}: {
  widgets: readonly WidgetInstance[];
  g: GridGeometry;
  top?: boolean;
}) {
  const { mode } = usePageContext();
  const height = rowsOf(widgets, mode) * g.rowHeight;
  const [limit] = useState(() => (top ? firstScreenPx() : Number.POSITIVE_INFINITY));
  const deferred = widgets.some((w) => w.layout[mode].y * g.rowHeight >= limit);
  const [all, setAll] = useState(!deferred);
  useEffect(() => {
    if (all) return;
    // Passive effects of the first commit run after its paint; the timer leaves the frame first.
    const timer = setTimeout(() => setAll(true), 0);
    return () => clearTimeout(timer);
  }, [all]);
  useLayoutEffect(() => {
    if (top && all) markPageComplete();
  }, [top, all]);
  return (
    <div
      className="lc-grid"
      style={{ position: 'relative', width: '100%', height }}
      data-deferred={all ? undefined : '1'}
    >
      {widgets.map((w) => (
        <Cell key={w.id} w={w} g={g} mode={mode} drawn={all || w.layout[mode].y * g.rowHeight < limit} />
      ))}
    </div>
  );
});

/** One widget's box; its content once `drawn` (boxes of deferred widgets hold their place empty). */
const Cell = memo(function Cell({
  w,
  g,
  mode,
  drawn,
}: {
  w: WidgetInstance;
  g: GridGeometry;
  mode: PageMode;
  drawn: boolean;
}) {
  return (
    <div style={boxStyle(w.layout[mode], g)} data-wid={w.id} data-kind={w.kind}>
      {drawn ? (
        <WidgetBoundary id={w.id} kind={w.kind}>
          <WidgetBox w={w}>
            {w.children?.length && getWidget(w.kind)?.meta.container ? (
              <Grid widgets={w.children} g={g} />
            ) : undefined}
          </WidgetBox>
        </WidgetBoundary>
      ) : null}
    </div>
  );
});
