import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'page',
  category: 'baima',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.PageWidget),
  meta: {
    title: { zh: '页面', en: 'Page' },
    icon: 'FileOutlined',
    size: { width: 600, height: 400 },
  },
});
