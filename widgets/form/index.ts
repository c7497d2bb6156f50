import { defineWidget } from '../define.ts';
import { FormWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'form',
  category: 'baima',
  schema,
  render: FormWidget,
  meta: {
    title: { zh: '表单', en: 'Form' },
    icon: 'FormOutlined',
    size: { width: 600, height: 400 },
  },
});
