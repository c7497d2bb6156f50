import { defineWidget } from '../define.ts';
import { GraphWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'graph',
  category: 'baima',
  schema,
  render: GraphWidget,
  meta: {
    title: { zh: '图表', en: 'Graph' },
    icon: 'AreaChartOutlined',
    size: { width: 600, height: 400 },
  },
});
