import { aggregate, seriesOption } from '../../src/client/runtime/chart-option.ts';
import { useECharts } from '../../src/client/runtime/use-echarts.ts';
import { useWidgetData } from '../../src/client/runtime/widget-context.ts';
import { str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';

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
