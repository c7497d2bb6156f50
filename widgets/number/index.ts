import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'number',
  category: 'base',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.NumberWidget),
  meta: {
    title: { zh: '数字', en: 'Number' },
    icon: 'FieldNumberOutlined',
    size: { width: 200, height: 60 },
  },
});
