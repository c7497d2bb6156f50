import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'rating',
  category: 'input',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.RatingWidget),
  events: [
    {
      name: 'onChange',
      payload: 'value',
      title: { zh: '评分改变时', en: 'On rating change' },
      doc: { zh: '新的分值（0 表示清除）', en: 'The new score (0 when cleared)' },
    },
  ],
  meta: {
    title: { zh: '评分', en: 'Rating' },
    icon: 'StarOutlined',
    size: { width: 180, height: 32 },
  },
});
