import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'iframe',
  category: 'simple',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.IframeWidget),
  meta: {
    title: { zh: '内嵌网页', en: 'Web page' },
    icon: 'GlobalOutlined',
    size: { width: 600, height: 400 },
  },
});
