import { bool, num, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';

export function BlockWidget({ props, children }: WidgetRenderProps) {
  const title = str(props.title);
  return (
    <div
      style={{
        display: 'flex',
        flexDirection: props.direction === 'horizontal' ? 'row' : 'column',
        background: str(props.background, 'transparent'),
        padding: num(props.padding, 8),
        border: bool(props.border) ? '1px solid #e5e5e5' : undefined,
        borderRadius: num(props.radius, 0),
        height: '100%',
      }}
    >
      {title && <div style={{ fontWeight: 600, marginBottom: 8 }}>{title}</div>}
      {children}
    </div>
  );
}
