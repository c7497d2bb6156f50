import { defineWidget } from '../define.ts';
import { ChartProgressWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'chart-progress',
  category: 'chart',
  schema,
  render: ChartProgressWidget,
  meta: {
    title: { zh: '进度条', en: 'Progress' },
    icon: 'DashOutlined',
    size: { width: 300, height: 40 },
  },
});
