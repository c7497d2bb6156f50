import { useEffect, useRef } from 'react';
import { bool, color, num, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';

/** Barcode drawn by jsbarcode, loaded lazily in an effect. Text must be non-empty without spaces. */
export function BarcodeWidget({ props }: WidgetRenderProps) {
  const ref = useRef<SVGSVGElement | null>(null);
  const value = str(props.value, 'ABC123');
  const valid = value !== '' && !/\s/.test(value);
  const format = str(props.format, 'CODE128');
  const showText = bool(props.showText, true);
  const lineColor = color(props.lineColor, '#000000');
  const height = num(props.height, 50);
  useEffect(() => {
    if (!valid) return;
    let live = true;
    import('jsbarcode').then(({ default: JsBarcode }) => {
      if (!live || !ref.current) return;
      try {
        JsBarcode(ref.current, value, { format, displayValue: showText, lineColor, height, margin: 0 });
      } catch {
        // A value the chosen format cannot encode leaves the svg empty; the panel shows the rule.
      }
    });
    return () => {
      live = false;
    };
  }, [valid, value, format, showText, lineColor, height]);
  if (!valid) return <div style={{ color: '#ff4d4f' }}>条形码内容不能为空且不能包含空格</div>;
  return <svg ref={ref} role="img" aria-label={value} style={{ maxWidth: '100%' }} />;
}
