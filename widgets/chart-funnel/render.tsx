import { bool, list, num, obj, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { datasetPoints } from '../kit/chart-option.ts';
import { useECharts } from '../kit/use-echarts.ts';
import { useWidgetData } from '../kit/widget-context.ts';

export function ChartFunnelWidget({ id, props }: WidgetRenderProps) {
  const rows = useWidgetData(id);
  const fromDataset = datasetPoints(props, rows.rows, rows.meta.fields);
  const data =
    fromDataset ??
    list(props.data)
      .map(obj)
      .map((d) => ({ name: str(d.name), value: num(d.value, 0) }));
  const sort = props.sort === 'ascending' || props.sort === 'none' ? props.sort : 'descending';
  const ref = useECharts({
    title: str(props.title) ? { text: str(props.title) } : undefined,
    tooltip: { trigger: 'item' },
    legend: bool(props.showLegend, true) ? { bottom: 0 } : undefined,
    series: [{ type: 'funnel', sort, data, left: '10%', width: '80%' }],
  });
  return <div ref={ref} style={{ width: '100%', height: '100%', minHeight: 200 }} />;
}
