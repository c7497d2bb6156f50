import { Switch } from 'antd';
import { color, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useWidgetValue } from '../kit/widget-context.ts';

/** The value is kept as the text "true" or "false" (spec), not a boolean. */
export function SwitchWidget({ id, props }: WidgetRenderProps) {
  const [value, setValue] = useWidgetValue(id, str(props.value) === 'true' ? 'true' : 'false');
  const on = value === 'true';
  const scale = props.size === 'small' ? 0.8 : props.size === 'large' ? 1.25 : 1;
  return (
    <Switch
      checked={on}
      size={props.size === 'small' ? 'small' : 'default'}
      checkedChildren={str(props.trueValue) || undefined}
      unCheckedChildren={str(props.falseValue) || undefined}
      style={{
        background: on ? color(props.trueColor, '#0098FF') : color(props.falseColor, '#ccc'),
        transform: scale === 1.25 ? 'scale(1.25)' : undefined,
      }}
      onChange={(c) => setValue(c ? 'true' : 'false')}
    />
  );
}
