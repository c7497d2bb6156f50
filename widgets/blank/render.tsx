import { str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';

export function BlankWidget({ props }: WidgetRenderProps) {
  return <div style={{ width: '100%', height: '100%', background: str(props.background, 'transparent') }} />;
}
