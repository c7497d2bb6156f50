import { cartesianOption } from '../../src/client/runtime/chart-option.ts';
import { useECharts } from '../../src/client/runtime/use-echarts.ts';
import type { WidgetRenderProps } from '../define.ts';

export function ChartLineWidget({ props }: WidgetRenderProps) {
  const ref = useECharts(cartesianOption('line', props));
  return <div ref={ref} style={{ width: '100%', height: '100%', minHeight: 200 }} />;
}
