import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'html',
  category: 'simple',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.HtmlWidget),
  meta: {
    title: { zh: 'HTML', en: 'HTML' },
    icon: 'Html5Outlined',
    size: { width: 400, height: 200 },
  },
});
