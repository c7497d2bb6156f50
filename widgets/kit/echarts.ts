/**
 * The part of echarts the chart kinds draw with: bar, line, pie and funnel series with titles,
 * tooltips, legends and cartesian grids, on SVG (the designer) or canvas (the runtime). The full
 * package registers every series, component and feature at load: a 1.1 MB chunk whose evaluation
 * alone took a quarter of a second while a designer page of charts opened. A kind that needs more
 * (a series type, a component) registers it here; echarts-parts.test.ts checks the kinds' options
 * against this list.
 */
import { BarChart, FunnelChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import { init, use } from 'echarts/core';
import { LabelLayout } from 'echarts/features';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';

use([
  BarChart,
  LineChart,
  PieChart,
  FunnelChart,
  GridComponent,
  TitleComponent,
  TooltipComponent,
  LegendComponent,
  LabelLayout,
  SVGRenderer,
  CanvasRenderer,
]);

/** Series types registered above. */
export const SERIES_TYPES: ReadonlySet<string> = new Set(['bar', 'line', 'pie', 'funnel']);
/** Top-level option keys served by the registered components (and the axes of the grid). */
export const OPTION_KEYS: ReadonlySet<string> = new Set([
  'series',
  'title',
  'tooltip',
  'legend',
  'grid',
  'xAxis',
  'yAxis',
]);

export { init };
