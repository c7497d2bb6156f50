import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'form',
  category: 'baima',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.FormWidget),
  meta: {
    title: { zh: '表单', en: 'Form' },
    icon: 'FormOutlined',
    size: { width: 600, height: 400 },
  },
});
