import { Radio } from 'antd';
import { bool, options, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useWidgetValue } from '../kit/widget-context.ts';

const SIZES = ['small', 'middle', 'large'] as const;

export function RadioWidget({ id, props }: WidgetRenderProps) {
  const [value, setValue] = useWidgetValue(id, str(props.value));
  const vertical = bool(props.vertical);
  return (
    <Radio.Group
      value={value}
      size={SIZES.find((s) => s === props.size) ?? 'middle'}
      style={vertical ? { display: 'flex', flexDirection: 'column' } : undefined}
      onChange={(e) => setValue(String(e.target.value))}
    >
      {options(props.list).map((o) => (
        <Radio key={o.value} value={o.value}>
          {o.label}
        </Radio>
      ))}
    </Radio.Group>
  );
}
