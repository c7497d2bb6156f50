import { Progress } from 'antd';
import { bool, color, num } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { datasetPoints } from '../kit/chart-option.ts';
import { useWidgetData } from '../kit/widget-context.ts';

/** Percent of value over total, rounded to `decimals` (2 by default); with a dataset, its first row's value. */
export function ChartProgressWidget({ id, props }: WidgetRenderProps) {
  const data = useWidgetData(id);
  const fromDataset = datasetPoints(props, data.rows, data.meta.fields);
  const value = fromDataset ? (fromDataset[0]?.value ?? 0) : num(props.value, 0);
  const total = num(props.total, 100);
  const decimals = Math.max(0, Math.min(6, Math.trunc(num(props.decimals, 2))));
  const raw = total === 0 ? 0 : (value / total) * 100;
  const f = 10 ** decimals;
  const percent = Math.max(0, Math.min(100, Math.round(raw * f) / f));
  return (
    <Progress
      type={props.type === 'circle' ? 'circle' : 'line'}
      percent={percent}
      strokeColor={color(props.color, '#0098FF')}
      showInfo={bool(props.showText, true)}
      format={(p) => `${(p ?? 0).toFixed(decimals)}%`}
    />
  );
}
