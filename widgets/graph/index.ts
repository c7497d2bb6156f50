import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'graph',
  category: 'baima',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.GraphWidget),
  data: 'aggregate',
  meta: {
    title: { zh: '图表', en: 'Graph' },
    icon: 'AreaChartOutlined',
    size: { width: 600, height: 400 },
  },
});
