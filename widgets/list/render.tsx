import { Empty } from 'antd';
import { num, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useRuntime, useWidgetData, WidgetRuntimeProvider } from '../kit/widget-context.ts';

/** Repeats its children once per data row, each copy seeing that row as `record` in expressions. */
export function ListWidget({ id, props, children }: WidgetRenderProps) {
  const rt = useRuntime();
  const data = useWidgetData(id);
  const horizontal = props.direction === 'horizontal';
  const style = {
    display: 'flex',
    flexDirection: horizontal ? 'row' : 'column',
    gap: num(props.gap, 8),
  } as const;
  const itemStyle = { minHeight: num(props.itemHeight, 60) };
  if (!data.rows.length) {
    if (rt.mode === 'design')
      return (
        <div style={style}>
          <div style={itemStyle}>{children}</div>
        </div>
      );
    return <Empty description={str(props.emptyText, '暂无数据')} />;
  }
  return (
    <div style={style}>
      {data.rows.map((row, i) => (
        <WidgetRuntimeProvider
          key={String(row._id ?? i)}
          runtime={{ ...rt, scope: { ...rt.scope, record: row } }}
        >
          <div style={itemStyle}>{children}</div>
        </WidgetRuntimeProvider>
      ))}
    </div>
  );
}
