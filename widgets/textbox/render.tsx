import { Input, InputNumber } from 'antd';
import { bool, color, num, str } from '../../src/shared/props.ts';
import { safeUrl } from '../../src/shared/sanitize.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useWidgetValue } from '../kit/widget-context.ts';

export function TextboxWidget({ id, props }: WidgetRenderProps) {
  const [value, setValue] = useWidgetValue(id, str(props.value));
  const placeholder = str(props.placeholder, '请输入');
  const disabled = bool(props.disabled);
  const maxLength = num(props.maxLength, 0) || undefined;
  const iconUrl = safeUrl(str(props.iconUrl));
  const icon = iconUrl ? (
    <img src={iconUrl} alt="" style={{ width: 14, height: 14 }} />
  ) : (
    <span style={{ color: color(props.iconColor, '#999999') }}>●</span>
  );
  const affix =
    props.iconType === 'prefix' ? { prefix: icon } : props.iconType === 'suffix' ? { suffix: icon } : {};
  switch (props.type) {
    case 'password':
      return (
        <Input.Password
          {...affix}
          value={value}
          placeholder={placeholder}
          disabled={disabled}
          maxLength={maxLength}
          onChange={(e) => setValue(e.target.value)}
        />
      );
    case 'textarea':
      return (
        <Input.TextArea
          value={value}
          placeholder={placeholder}
          disabled={disabled}
          maxLength={maxLength}
          onChange={(e) => setValue(e.target.value)}
        />
      );
    case 'number':
      return (
        <InputNumber
          {...affix}
          style={{ width: '100%' }}
          value={value === '' ? null : num(value, 0)}
          placeholder={placeholder}
          disabled={disabled}
          onChange={(v) => setValue(v === null ? '' : String(v))}
        />
      );
    default:
      return (
        <Input
          {...affix}
          type={props.type === 'email' ? 'email' : 'text'}
          value={value}
          placeholder={placeholder}
          disabled={disabled}
          maxLength={maxLength}
          onChange={(e) => setValue(e.target.value)}
        />
      );
  }
}
