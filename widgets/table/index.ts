import { defineWidget } from '../define.ts';
import { TableWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'table',
  category: 'baima',
  schema,
  render: TableWidget,
  meta: {
    title: { zh: '表格', en: 'Table' },
    icon: 'TableOutlined',
    size: { width: 800, height: 400 },
  },
});
