import { defineWidget } from '../define.ts';
import { ChartFunnelWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'chart-funnel',
  category: 'chart',
  schema,
  render: ChartFunnelWidget,
  meta: {
    title: { zh: '漏斗图', en: 'Funnel' },
    icon: 'FunnelPlotOutlined',
    size: { width: 300, height: 300 },
  },
});
