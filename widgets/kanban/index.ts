import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'kanban',
  category: 'baima',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.KanbanWidget),
  meta: {
    title: { zh: '看板', en: 'Kanban board' },
    icon: 'ProjectOutlined',
    size: { width: 1000, height: 480 },
  },
});
