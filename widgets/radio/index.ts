import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'radio',
  category: 'input',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.RadioWidget),
  events: [{ name: 'onChange', payload: 'value', title: { zh: '值改变时', en: 'On change' } }],
  meta: {
    title: { zh: '单选框', en: 'Radio' },
    icon: 'CheckCircleOutlined',
    size: { width: 200, height: 32 },
  },
});
