import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'table',
  category: 'baima',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.TableWidget),
  meta: {
    title: { zh: '表格', en: 'Table' },
    icon: 'TableOutlined',
    size: { width: 800, height: 400 },
  },
});
