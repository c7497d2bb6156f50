import { defineWidget } from '../define.ts';
import { BlankWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'blank',
  category: 'base',
  schema,
  render: BlankWidget,
  meta: {
    title: { zh: '空白', en: 'Blank' },
    icon: 'BorderOuterOutlined',
    size: { width: 200, height: 50 },
  },
});
