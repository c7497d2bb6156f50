import { defineWidget } from '../define.ts';
import { RichtextWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'richtext',
  category: 'base',
  schema,
  render: RichtextWidget,
  meta: {
    title: { zh: '富文本', en: 'Rich text' },
    icon: 'FileTextOutlined',
    size: { width: 400, height: 200 },
  },
});
