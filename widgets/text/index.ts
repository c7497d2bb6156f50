import { defineWidget } from '../define.ts';
import { TextWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'text',
  category: 'base',
  schema,
  render: TextWidget,
  meta: {
    title: { zh: '文本', en: 'Text' },
    icon: 'FontSizeOutlined',
    size: { width: 200, height: 32 },
  },
});
