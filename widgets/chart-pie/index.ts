import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'chart-pie',
  category: 'chart',
  schema,
  // A dataset (the `dataset` prop) may feed it; without one it draws its own values.
  data: 'aggregate',
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.ChartPieWidget),
  meta: {
    title: { zh: '饼图', en: 'Pie' },
    icon: 'PieChartOutlined',
    size: { width: 400, height: 300 },
  },
});
