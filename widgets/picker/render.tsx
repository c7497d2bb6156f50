import { Select } from 'antd';
import { options, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useWidgetValue } from '../kit/widget-context.ts';

/** A single-choice picker; on phones the runtime shell shows it as a bottom sheet. */
export function PickerWidget({ id, props }: WidgetRenderProps) {
  const [value, setValue] = useWidgetValue(id, str(props.value));
  return (
    <Select
      style={{ width: '100%' }}
      value={value || undefined}
      options={options(props.list)}
      placeholder={str(props.placeholder, '请选择')}
      title={str(props.title) || undefined}
      onChange={(v: string) => setValue(v)}
    />
  );
}
