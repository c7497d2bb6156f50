import { Rate } from 'antd';
import { bool, num } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useWidgetValue } from '../kit/widget-context.ts';

/**
 * Stars (antd Rate). The score is the widget's value: expressions read it as `widgets.<id>`, a
 * setValue action or a script sets it, and each choice fires `onChange` with the new score.
 */
export function RatingWidget({ id, props }: WidgetRenderProps) {
  const count = Math.max(1, Math.min(10, Math.trunc(num(props.count, 5))));
  const [value, setValue] = useWidgetValue(id, num(props.value, 0));
  const score = Math.max(0, Math.min(count, num(value, 0)));
  return (
    <Rate
      count={count}
      allowHalf={bool(props.allowHalf)}
      disabled={bool(props.readOnly)}
      value={score}
      onChange={(v) => setValue(v)}
      // One row of stars; a box narrower than the stars scrolls instead of wrapping them.
      style={{ whiteSpace: 'nowrap' }}
    />
  );
}
