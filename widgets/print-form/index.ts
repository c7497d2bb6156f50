import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'print-form',
  category: 'print',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.PrintFormWidget),
  data: 'record',
  meta: {
    title: { zh: '打印表单', en: 'Print form' },
    icon: 'ProfileOutlined',
    size: { width: 800, height: 300 },
  },
});
