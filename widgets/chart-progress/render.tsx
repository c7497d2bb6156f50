import { Progress } from 'antd';
import { bool, color, num } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';

/** Percent of value over total, rounded to `decimals` (2 by default). */
export function ChartProgressWidget({ props }: WidgetRenderProps) {
  const total = num(props.total, 100);
  const decimals = Math.max(0, Math.min(6, Math.trunc(num(props.decimals, 2))));
  const raw = total === 0 ? 0 : (num(props.value, 0) / total) * 100;
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
