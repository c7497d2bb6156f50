import { defineWidget } from '../define.ts';
import { MobileDatepickerWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'mobile-datepicker',
  category: 'input',
  schema,
  render: MobileDatepickerWidget,
  meta: {
    title: { zh: '移动端日期', en: 'Mobile date picker' },
    icon: 'FieldTimeOutlined',
    size: { width: 200, height: 32 },
  },
});
