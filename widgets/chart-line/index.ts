import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'chart-line',
  category: 'chart',
  schema,
  // A dataset (the `dataset` prop) may feed it; without one it draws its own values.
  data: 'aggregate',
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.ChartLineWidget),
  // The designer's panel, loaded only there (the runtime never fetches it).
  panel: () => import('./panel.tsx').then((m) => m.SeriesPanel),
  meta: {
    title: { zh: '折线图', en: 'Line' },
    icon: 'LineChartOutlined',
    size: { width: 400, height: 300 },
  },
});
