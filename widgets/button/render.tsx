import { Button } from 'antd';
import { bool, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useDispatch } from '../kit/widget-context.ts';

const TYPES = ['primary', 'default', 'dashed', 'link', 'text'] as const;
const SIZES = ['small', 'middle', 'large'] as const;

export function ButtonWidget({ id, props }: WidgetRenderProps) {
  const dispatch = useDispatch(id);
  const type = TYPES.find((t) => t === props.type) ?? 'primary';
  const size = SIZES.find((s) => s === props.size) ?? 'middle';
  return (
    <Button
      type={type}
      size={size}
      danger={bool(props.danger)}
      block={bool(props.block)}
      disabled={bool(props.disabled)}
      onClick={() => dispatch('onClick')}
    >
      {str(props.text, '按钮')}
    </Button>
  );
}
