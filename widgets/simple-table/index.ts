import { defineWidget } from '../define.ts';
import { SimpleTableWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'simple-table',
  category: 'simple',
  schema,
  render: SimpleTableWidget,
  meta: {
    title: { zh: '简易表格', en: 'Table view' },
    icon: 'TableOutlined',
    size: { width: 600, height: 300 },
  },
});
