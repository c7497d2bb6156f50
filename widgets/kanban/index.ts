import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'kanban',
  category: 'baima',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.KanbanWidget),
  events: [
    { name: 'onCardClick', payload: 'record', title: { zh: '点击卡片时', en: 'On card click' } },
    {
      name: 'onMove',
      payload: 'object',
      title: { zh: '移动卡片时', en: 'On card move' },
      doc: {
        zh: '{ record, from, to, index }：卡片的记录、原列、新列和新位置',
        en: '{ record, from, to, index }: the card’s record, its old and new column, its new position',
      },
    },
  ],
  data: 'rows',
  // Moves show to everyone on the page at once, unless the builder switched `realtime` off.
  live: (props) => props.realtime !== false,
  meta: {
    title: { zh: '看板', en: 'Kanban board' },
    icon: 'ProjectOutlined',
    size: { width: 1000, height: 480 },
  },
});
