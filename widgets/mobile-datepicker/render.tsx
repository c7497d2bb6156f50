import { str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useWidgetValue } from '../kit/widget-context.ts';

const INPUT_TYPE = {
  year: 'number',
  month: 'month',
  day: 'date',
  hour: 'datetime-local',
  minute: 'datetime-local',
} as const;

/** The phone's native date control (the browser's own wheel picker), precision year to minute. */
export function MobileDatepickerWidget({ id, props }: WidgetRenderProps) {
  const [value, setValue] = useWidgetValue(id, str(props.value));
  const precision = str(props.precision, 'day') as keyof typeof INPUT_TYPE;
  return (
    <input
      type={INPUT_TYPE[precision] ?? 'date'}
      value={value}
      placeholder={str(props.placeholder, '请选择日期')}
      onChange={(e) => setValue(e.target.value)}
      style={{ width: '100%', height: 32, border: '1px solid #d9d9d9', borderRadius: 6, padding: '0 8px' }}
    />
  );
}
