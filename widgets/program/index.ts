import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'program',
  category: 'simple',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.ProgramWidget),
  meta: {
    title: { zh: '程序按钮', en: 'Program buttons' },
    icon: 'ThunderboltOutlined',
    size: { width: 400, height: 120 },
  },
});
