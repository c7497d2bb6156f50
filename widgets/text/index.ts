import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'text',
  category: 'base',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.TextWidget),
  events: [{ name: 'onClick', payload: 'none', title: { zh: '点击时', en: 'On click' } }],
  meta: {
    title: { zh: '文本', en: 'Text' },
    icon: 'FontSizeOutlined',
    size: { width: 200, height: 32 },
  },
});
