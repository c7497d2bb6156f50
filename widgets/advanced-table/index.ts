import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'advanced-table',
  category: 'baima',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.AdvancedTableWidget),
  events: [
    {
      name: 'onChange',
      payload: 'object',
      title: { zh: '翻页或排序时', en: 'On page or sort change' },
      doc: { zh: '{ page, sort }：页码和排序', en: '{ page, sort }: the page and the sort' },
    },
  ],
  data: 'rows',
  // Bound to a table, end users get the data view list menu entries open (it loads its own rows).
  dataView: true,
  meta: {
    title: { zh: '高级表格', en: 'Advanced table' },
    icon: 'InsertRowBelowOutlined',
    size: { width: 800, height: 400 },
  },
});
