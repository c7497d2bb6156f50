import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'richtext',
  category: 'base',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.RichtextWidget),
  meta: {
    title: { zh: '富文本', en: 'Rich text' },
    icon: 'FileTextOutlined',
    size: { width: 400, height: 200 },
  },
});
