import { defineWidget } from '../define.ts';
import { CheckboxWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'checkbox',
  category: 'input',
  schema,
  render: CheckboxWidget,
  meta: {
    title: { zh: '多选框', en: 'Checkbox' },
    icon: 'CheckSquareOutlined',
    size: { width: 200, height: 32 },
  },
});
