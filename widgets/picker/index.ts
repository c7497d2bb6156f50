import { defineWidget } from '../define.ts';
import { PickerWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'picker',
  category: 'input',
  schema,
  render: PickerWidget,
  meta: {
    title: { zh: '选择器', en: 'Picker' },
    icon: 'UnorderedListOutlined',
    size: { width: 200, height: 32 },
  },
});
