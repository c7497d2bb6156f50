import { defineWidget } from '../define.ts';
import { SimpleGraphWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'simple-graph',
  category: 'simple',
  schema,
  render: SimpleGraphWidget,
  meta: {
    title: { zh: '简易图表', en: 'Graph view' },
    icon: 'DotChartOutlined',
    size: { width: 600, height: 300 },
  },
});
