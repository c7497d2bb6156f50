import { aggregate, seriesOption } from '../../src/client/runtime/chart-option.ts';
import { useECharts } from '../../src/client/runtime/use-echarts.ts';
import { useWidgetData } from '../../src/client/runtime/widget-context.ts';
import { str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';

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
