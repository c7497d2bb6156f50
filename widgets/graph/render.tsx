import { str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { aggregate, seriesOption } from '../kit/chart-option.ts';
import { useECharts } from '../kit/use-echarts.ts';
import { useWidgetData } from '../kit/widget-context.ts';

/** A chart over an entity: rows grouped by the dimension field, the measure aggregated. */
export function GraphWidget({ id, props }: WidgetRenderProps) {
  const data = useWidgetData(id);
  const points = aggregate(
    data.rows,
    str(props.dimension),
    str(props.measure),
    str(props.aggregate, 'count'),
  );
  const ref = useECharts(seriesOption(str(props.type, 'column'), points));
  return <div ref={ref} style={{ width: '100%', height: '100%', minHeight: 200 }} />;
}
