import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'swiper',
  category: 'other',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.SwiperWidget),
  meta: {
    title: { zh: '轮播图', en: 'Carousel' },
    icon: 'SlidersOutlined',
    size: { width: 400, height: 200 },
  },
});
