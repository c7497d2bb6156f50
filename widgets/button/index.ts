import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'button',
  category: 'base',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.ButtonWidget),
  events: [{ name: 'onClick', payload: 'none', title: { zh: '点击时', en: 'On click' } }],
  meta: {
    title: { zh: '按钮', en: 'Button' },
    icon: 'BorderOutlined',
    size: { width: 100, height: 32 },
  },
});
