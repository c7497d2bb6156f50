import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'simple-page',
  category: 'simple',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.SimplePageWidget),
  meta: {
    title: { zh: '简易页面', en: 'Page view' },
    icon: 'FileOutlined',
    size: { width: 600, height: 400 },
  },
});
