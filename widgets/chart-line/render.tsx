import { str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { cartesianOption, chartLabel, datasetPoints } from '../kit/chart-option.ts';
import { useECharts } from '../kit/use-echarts.ts';
import { useWidgetData } from '../kit/widget-context.ts';

/** Static values, or one point per row of the dataset named by `dataset`. */
export function ChartLineWidget({ id, props }: WidgetRenderProps) {
  const data = useWidgetData(id);
  const points = datasetPoints(props, data.rows, data.meta.fields);
  const ref = useECharts(cartesianOption('line', props, points));
  return (
    <div
      ref={ref}
      role="img"
      aria-label={chartLabel(str(props.title), points ?? [])}
      style={{ width: '100%', height: '100%', minHeight: 200 }}
    />
  );
}
