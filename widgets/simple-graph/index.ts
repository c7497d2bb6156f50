import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'simple-graph',
  category: 'simple',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.SimpleGraphWidget),
  data: 'aggregate',
  meta: {
    title: { zh: '简易图表', en: 'Graph view' },
    icon: 'DotChartOutlined',
    size: { width: 600, height: 300 },
  },
});
