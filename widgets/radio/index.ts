import { defineWidget } from '../define.ts';
import { RadioWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'radio',
  category: 'input',
  schema,
  render: RadioWidget,
  meta: {
    title: { zh: '单选框', en: 'Radio' },
    icon: 'CheckCircleOutlined',
    size: { width: 200, height: 32 },
  },
});
