import { defineWidget } from '../define.ts';
import { PrintTableWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'print-table',
  category: 'print',
  schema,
  render: PrintTableWidget,
  meta: {
    title: { zh: '打印表格', en: 'Print table' },
    icon: 'PrinterOutlined',
    size: { width: 800, height: 300 },
  },
});
