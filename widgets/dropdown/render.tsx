import { Select } from 'antd';
import { bool, options, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useRuntime, useWidgetValue } from '../kit/widget-context.ts';

export function DropdownWidget({ id, props }: WidgetRenderProps) {
  const rt = useRuntime();
  const multiple = bool(props.multiple);
  const [value, setValue] = useWidgetValue<string | string[]>(id, multiple ? [] : str(props.value));
  const fallback = rt.lang === 'en' ? 'please select' : '请选择';
  return (
    <Select
      style={{ width: '100%' }}
      mode={multiple ? 'multiple' : undefined}
      value={value === '' ? undefined : value}
      options={options(props.list)}
      placeholder={str(props.placeholder) || fallback}
      disabled={bool(props.disabled)}
      onChange={(v) => setValue(v)}
    />
  );
}
