import { defineWidget } from '../define.ts';
import { ChartPieWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'chart-pie',
  category: 'chart',
  schema,
  render: ChartPieWidget,
  meta: {
    title: { zh: '饼图', en: 'Pie' },
    icon: 'PieChartOutlined',
    size: { width: 400, height: 300 },
  },
});
