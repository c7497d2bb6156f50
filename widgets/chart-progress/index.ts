import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'chart-progress',
  category: 'chart',
  schema,
  // A dataset (the `dataset` prop) may feed it; without one it draws its own values.
  data: 'aggregate',
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.ChartProgressWidget),
  meta: {
    title: { zh: '进度条', en: 'Progress' },
    icon: 'DashOutlined',
    size: { width: 300, height: 40 },
  },
});
