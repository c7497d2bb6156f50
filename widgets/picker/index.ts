import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'picker',
  category: 'input',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.PickerWidget),
  events: [{ name: 'onChange', payload: 'value', title: { zh: '值改变时', en: 'On change' } }],
  meta: {
    title: { zh: '选择器', en: 'Picker' },
    icon: 'UnorderedListOutlined',
    size: { width: 200, height: 32 },
  },
});
