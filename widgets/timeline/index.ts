import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

/** Rows of a table as a timeline (a parcel's tracking events), newest first by default. */
export default defineWidget({
  kind: 'timeline',
  category: 'baima',
  schema,
  render: () => import('./render.tsx').then((m) => m.TimelineWidget),
  data: 'rows',
  meta: {
    title: { zh: '时间线', en: 'Timeline' },
    icon: 'FieldTimeOutlined',
    size: { width: 375, height: 400 },
  },
});
