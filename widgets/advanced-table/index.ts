import { defineWidget } from '../define.ts';
import { AdvancedTableWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'advanced-table',
  category: 'baima',
  schema,
  render: AdvancedTableWidget,
  meta: {
    title: { zh: '高级表格', en: 'Advanced table' },
    icon: 'InsertRowBelowOutlined',
    size: { width: 800, height: 400 },
  },
});
