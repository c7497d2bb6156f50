import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'chart-column',
  category: 'chart',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.ChartColumnWidget),
  meta: {
    title: { zh: '柱状图', en: 'Column' },
    icon: 'BarChartOutlined',
    size: { width: 400, height: 300 },
  },
});
