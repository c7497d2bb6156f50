import { useEffect, useState } from 'react';
import { color, num, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';

/** A counter that animates from 0 to its value (3000 ms by default); shows the final value before effects run. */
export function NumberWidget({ props }: WidgetRenderProps) {
  const value = num(props.value, 0);
  const duration = num(props.duration, 3000);
  const decimals = Math.max(0, Math.min(10, Math.trunc(num(props.decimals, 2))));
  const [shown, setShown] = useState(value);
  useEffect(() => {
    if (duration <= 0 || typeof requestAnimationFrame === 'undefined') {
      setShown(value);
      return;
    }
    const start = performance.now();
    let frame = 0;
    const tick = (now: number) => {
      const t = Math.min(1, (now - start) / duration);
      setShown(value * (1 - (1 - t) ** 3));
      if (t < 1) frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [value, duration]);
  return (
    <div style={{ fontSize: num(props.fontSize, 32), color: color(props.color, '#0098FF'), fontWeight: 600 }}>
      {str(props.prefix)}
      {shown.toFixed(decimals)}
      {str(props.suffix)}
    </div>
  );
}
