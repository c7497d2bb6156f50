import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'list',
  category: 'container',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.ListWidget),
  data: 'rows',
  meta: {
    title: { zh: '列表', en: 'List' },
    icon: 'BarsOutlined',
    size: { width: 400, height: 300 },
    container: true,
  },
});
