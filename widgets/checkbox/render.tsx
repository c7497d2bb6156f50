import { Checkbox } from 'antd';
import { bool, options, strings } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useWidgetValue } from '../kit/widget-context.ts';

export function CheckboxWidget({ id, props }: WidgetRenderProps) {
  const [value, setValue] = useWidgetValue(id, strings(props.value));
  return (
    <Checkbox.Group
      value={value}
      options={options(props.list)}
      disabled={bool(props.disabled)}
      style={bool(props.vertical) ? { display: 'flex', flexDirection: 'column' } : undefined}
      onChange={(v) => setValue(v.map(String))}
    />
  );
}
