import { defineWidget } from '../define.ts';
import { DatepickerWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'datepicker',
  category: 'input',
  schema,
  render: DatepickerWidget,
  meta: {
    title: { zh: '日期选择', en: 'Date picker' },
    icon: 'CalendarOutlined',
    size: { width: 200, height: 32 },
  },
});
