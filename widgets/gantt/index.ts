import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'gantt',
  category: 'baima',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.GanttWidget),
  events: [
    { name: 'onTaskClick', payload: 'record', title: { zh: '点击任务时', en: 'On task click' } },
    {
      name: 'onDateChange',
      payload: 'object',
      title: { zh: '任务日期改变时', en: 'On task dates change' },
      doc: {
        zh: '{ record, start, end }：任务的记录、新的开始和结束日期(YYYY-MM-DD)',
        en: '{ record, start, end }: the task’s record, its new start and end day (YYYY-MM-DD)',
      },
    },
  ],
  data: 'rows',
  // Moves show to everyone on the page at once, unless the builder switched `realtime` off.
  live: (props) => props.realtime !== false,
  meta: {
    title: { zh: '甘特图', en: 'Gantt chart' },
    icon: 'BarsOutlined',
    size: { width: 1000, height: 420 },
  },
});
