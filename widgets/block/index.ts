import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'block',
  category: 'container',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.BlockWidget),
  meta: {
    title: { zh: '区块', en: 'Block' },
    icon: 'LayoutOutlined',
    size: { width: 400, height: 200 },
    container: true,
  },
});
