import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'simple-table',
  category: 'simple',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.SimpleTableWidget),
  events: [{ name: 'onRowClick', payload: 'record', title: { zh: '点击行时', en: 'On row click' } }],
  data: 'rows',
  meta: {
    title: { zh: '简易表格', en: 'Table view' },
    icon: 'TableOutlined',
    size: { width: 600, height: 300 },
  },
});
