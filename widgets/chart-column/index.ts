import { defineWidget } from '../define.ts';
import { ChartColumnWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'chart-column',
  category: 'chart',
  schema,
  render: ChartColumnWidget,
  meta: {
    title: { zh: '柱状图', en: 'Column' },
    icon: 'BarChartOutlined',
    size: { width: 400, height: 300 },
  },
});
