import { defineWidget } from '../define.ts';
import { ButtonWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'button',
  category: 'base',
  schema,
  render: ButtonWidget,
  meta: {
    title: { zh: '按钮', en: 'Button' },
    icon: 'BorderOutlined',
    size: { width: 100, height: 32 },
  },
});
