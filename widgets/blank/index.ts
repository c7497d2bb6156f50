import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'blank',
  category: 'base',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.BlankWidget),
  meta: {
    title: { zh: '空白', en: 'Blank' },
    icon: 'BorderOuterOutlined',
    size: { width: 200, height: 50 },
  },
});
