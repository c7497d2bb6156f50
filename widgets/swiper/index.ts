import { defineWidget } from '../define.ts';
import { SwiperWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'swiper',
  category: 'other',
  schema,
  render: SwiperWidget,
  meta: {
    title: { zh: '轮播图', en: 'Carousel' },
    icon: 'SlidersOutlined',
    size: { width: 400, height: 200 },
  },
});
