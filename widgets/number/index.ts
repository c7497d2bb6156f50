import { defineWidget } from '../define.ts';
import { NumberWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'number',
  category: 'base',
  schema,
  render: NumberWidget,
  meta: {
    title: { zh: '数字', en: 'Number' },
    icon: 'FieldNumberOutlined',
    size: { width: 200, height: 60 },
  },
});
