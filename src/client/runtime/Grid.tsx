/**
 * A grid of widget boxes (the page's, or a container's), laid out from their per-mode positions. The
 * page's top grid draws the widgets of the first one and a half screens in its first commit and the
 * rest right after the first paint (`data-deferred` meanwhile).
 */
import { useEffect, useLayoutEffect, useState } from 'react';
import { getWidget } from '../../../widgets/registry.ts';
import type { WidgetInstance } from '../../shared/page-document.ts';
import { boxStyle, firstScreenPx, type GridGeometry, rowsOf } from './geometry.ts';
import { usePageContext } from './page-context.ts';
import { markPageComplete } from './timing.ts';
import { WidgetBoundary } from './WidgetBoundary.tsx';
import { WidgetBox } from './WidgetBox.tsx';

export function Grid({
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
        <div key={w.id} style={boxStyle(w.layout[mode], g)} data-wid={w.id} data-kind={w.kind}>
          {all || w.layout[mode].y * g.rowHeight < limit ? (
            <WidgetBoundary id={w.id} kind={w.kind}>
              <WidgetBox w={w}>
                {w.children?.length && getWidget(w.kind)?.meta.container ? (
                  <Grid widgets={w.children} g={g} />
                ) : undefined}
              </WidgetBox>
            </WidgetBoundary>
          ) : null}
        </div>
      ))}
    </div>
  );
}
