import { defineWidget } from '../define.ts';
import { ChartLineWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'chart-line',
  category: 'chart',
  schema,
  render: ChartLineWidget,
  meta: {
    title: { zh: '折线图', en: 'Line' },
    icon: 'LineChartOutlined',
    size: { width: 400, height: 300 },
  },
});
