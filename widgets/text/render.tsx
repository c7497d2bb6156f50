import type { CSSProperties } from 'react';
import { color, num, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';

/** Plain text; `{{ }}` templates are filled by the page renderer before props arrive here. */
export function TextWidget({ props }: WidgetRenderProps) {
  const style: CSSProperties = {
    fontSize: num(props.fontSize, 14),
    color: color(props.color, '#333333'),
    fontWeight: props.bold === true ? 600 : 400,
    textAlign: props.align === 'center' || props.align === 'right' ? props.align : 'left',
    lineHeight: num(props.lineHeight, 1.5),
    whiteSpace: 'pre-wrap',
    wordBreak: 'break-word',
  };
  return <div style={style}>{str(props.text)}</div>;
}
