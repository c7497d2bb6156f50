import { defineWidget } from '../define.ts';
import { PrintFormWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'print-form',
  category: 'print',
  schema,
  render: PrintFormWidget,
  meta: {
    title: { zh: '打印表单', en: 'Print form' },
    icon: 'ProfileOutlined',
    size: { width: 800, height: 300 },
  },
});
