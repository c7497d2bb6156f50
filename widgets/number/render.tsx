import { useEffect, useRef } from 'react';
import { color, num, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { countUp } from './count-up.ts';

/** A counter that animates from 0 to its value (3000 ms by default); shows the final value before effects run. */
export function NumberWidget({ props }: WidgetRenderProps) {
  const value = num(props.value, 0);
  const duration = num(props.duration, 3000);
  const decimals = Math.max(0, Math.min(10, Math.trunc(num(props.decimals, 2))));
  const text = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const el = text.current;
    return el ? countUp(el, value, duration, decimals) : undefined;
  }, [value, duration, decimals]);
  return (
    <div style={{ fontSize: num(props.fontSize, 32), color: color(props.color, '#0098FF'), fontWeight: 600 }}>
      {str(props.prefix)}
      <span ref={text}>{value.toFixed(decimals)}</span>
      {str(props.suffix)}
    </div>
  );
}
