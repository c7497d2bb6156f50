import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

/**
 * One record shown for reading (a product's detail, a profile): its image (or round avatar), title,
 * price, tag, subtitle and description fields. The record is the one the page parameter `id` names.
 */
export default defineWidget({
  kind: 'detail-card',
  category: 'baima',
  schema,
  render: () => import('./render.tsx').then((m) => m.DetailCardWidget),
  data: 'record',
  meta: {
    title: { zh: '详情卡片', en: 'Detail card' },
    icon: 'IdcardOutlined',
    size: { width: 375, height: 480 },
  },
});
