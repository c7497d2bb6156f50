import { bool, list, num, obj, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { chartLabel, datasetPoints } from '../kit/chart-option.ts';
import { useECharts } from '../kit/use-echarts.ts';
import { useWidgetData } from '../kit/widget-context.ts';

const CENTER_X = { left: '30%', center: '50%', right: '70%' } as const;

/** Pie: size is the outer radius in percent (10–90, default 50); ring cuts the middle out. */
export function ChartPieWidget({ id, props }: WidgetRenderProps) {
  const rows = useWidgetData(id);
  const fromDataset = datasetPoints(props, rows.rows, rows.meta.fields);
  const size = Math.max(10, Math.min(90, num(props.size, 50)));
  const pos =
    props.legendPosition === 'top' || props.legendPosition === 'left' || props.legendPosition === 'right'
      ? props.legendPosition
      : 'bottom';
  const x =
    CENTER_X[props.piePosition === 'left' || props.piePosition === 'right' ? props.piePosition : 'center'];
  const ref = useECharts({
    title: bool(props.showTitle) ? { text: str(props.title), left: 'center' } : undefined,
    tooltip: { trigger: 'item' },
    legend: bool(props.showLegend, true)
      ? { [pos]: 0, orient: props.orient === 'vertical' ? 'vertical' : 'horizontal' }
      : undefined,
    series: [
      {
        type: 'pie',
        center: [x, '50%'],
        radius: bool(props.showRing) ? [`${size * 0.6}%`, `${size}%`] : `${size}%`,
        data:
          fromDataset ??
          list(props.data)
            .map(obj)
            .map((d) => ({ name: str(d.name), value: num(d.value, 0) })),
      },
    ],
  });
  return (
    <div
      ref={ref}
      role="img"
      aria-label={chartLabel(str(props.title), fromDataset ?? [])}
      style={{ width: '100%', height: '100%', minHeight: 200 }}
    />
  );
}
