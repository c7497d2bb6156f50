import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'advanced-table',
  category: 'baima',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.AdvancedTableWidget),
  meta: {
    title: { zh: '高级表格', en: 'Advanced table' },
    icon: 'InsertRowBelowOutlined',
    size: { width: 800, height: 400 },
  },
});
