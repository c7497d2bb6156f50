import { QRCode } from 'antd';
import { color, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';

const LEVELS = ['L', 'M', 'Q', 'H'] as const;

export function QrcodeWidget({ props }: WidgetRenderProps) {
  return (
    <QRCode
      // SVG, not canvas: crisp in print, and no composited layer per code on a page of many widgets.
      type="svg"
      value={str(props.value, ' ') || ' '}
      size={80}
      bordered={false}
      color={color(props.color, '#000000')}
      bgColor={color(props.bgColor, '#ffffff')}
      errorLevel={LEVELS.find((l) => l === props.errorLevel) ?? 'M'}
      style={{ width: '100%', height: '100%' }}
    />
  );
}
