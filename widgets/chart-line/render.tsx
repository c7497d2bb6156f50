import type { WidgetRenderProps } from '../define.ts';
import { cartesianOption } from '../kit/chart-option.ts';
import { useECharts } from '../kit/use-echarts.ts';

export function ChartLineWidget({ props }: WidgetRenderProps) {
  const ref = useECharts(cartesianOption('line', props));
  return <div ref={ref} style={{ width: '100%', height: '100%', minHeight: 200 }} />;
}
