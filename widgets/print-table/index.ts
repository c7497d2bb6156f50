import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'print-table',
  category: 'print',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.PrintTableWidget),
  data: 'rows',
  meta: {
    title: { zh: '打印表格', en: 'Print table' },
    icon: 'PrinterOutlined',
    size: { width: 800, height: 300 },
  },
});
