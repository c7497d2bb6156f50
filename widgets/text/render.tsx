import type { CSSProperties } from 'react';
import { color, num, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useDispatch } from '../kit/widget-context.ts';

/**
 * Plain text; `{{ }}` templates are filled by the page renderer before props arrive here. A click
 * fires `onClick` (its actions run; none, nothing happens).
 */
export function TextWidget({ id, props }: WidgetRenderProps) {
  const dispatch = useDispatch(id);
  const style: CSSProperties = {
    fontSize: num(props.fontSize, 14),
    color: color(props.color, '#333333'),
    fontWeight: props.bold === true ? 600 : 400,
    textAlign: props.align === 'center' || props.align === 'right' ? props.align : 'left',
    lineHeight: num(props.lineHeight, 1.5),
    whiteSpace: 'pre-wrap',
    wordBreak: 'break-word',
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: a text a builder may make clickable; keyboard users reach the same actions through buttons
    <div style={style} onClick={() => dispatch('onClick')}>
      {str(props.text)}
    </div>
  );
}
