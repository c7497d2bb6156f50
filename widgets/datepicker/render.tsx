import { DatePicker } from 'antd';
import { DATE_FORMAT_DEFAULT, toDayjsFormat } from '../../src/shared/date-format.ts';
import { bool, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useWidgetValue } from '../kit/widget-context.ts';

/** Five picker types; the value is kept as formatted text (two texts for ranges). */
export function DatepickerWidget({ id, props }: WidgetRenderProps) {
  const [, setValue] = useWidgetValue<string | string[]>(id, '');
  const format = toDayjsFormat(str(props.format, DATE_FORMAT_DEFAULT));
  const type = str(props.type, 'date');
  const common = { format, disabled: bool(props.disabled), style: { width: '100%' } };
  if (type === 'daterange' || type === 'datetimerange')
    return (
      <DatePicker.RangePicker
        {...common}
        showTime={type === 'datetimerange'}
        onChange={(_, text) => setValue(text as string[])}
      />
    );
  return (
    <DatePicker
      {...common}
      picker={type === 'month' ? 'month' : 'date'}
      showTime={type === 'datetime'}
      placeholder={str(props.placeholder, '请选择日期')}
      onChange={(_, text) => setValue(text as string)}
    />
  );
}
