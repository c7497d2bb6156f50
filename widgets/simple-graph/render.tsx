import { str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { aggregate, seriesOption } from '../kit/chart-option.ts';
import { useECharts } from '../kit/use-echarts.ts';
import { useWidgetData } from '../kit/widget-context.ts';

/** A saved graph shown in a simple page: first field is the dimension, second the measure. */
export function SimpleGraphWidget({ id, props }: WidgetRenderProps) {
  const data = useWidgetData(id);
  const [dim, measure] = (data.meta.fields ?? []).map((f) => f.key);
  const points = aggregate(data.rows, dim ?? '', measure ?? '', measure ? 'sum' : 'count');
  const ref = useECharts({
    ...seriesOption(str(props.type, 'column'), points),
    title: { text: str(props.title) },
  });
  return <div ref={ref} style={{ width: '100%', height: '100%', minHeight: 200 }} />;
}
