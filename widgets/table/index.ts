import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'table',
  category: 'baima',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.TableWidget),
  events: [
    { name: 'onRowClick', payload: 'record', title: { zh: '点击行时', en: 'On row click' } },
    { name: 'onSearch', payload: 'value', title: { zh: '搜索时', en: 'On search' } },
    { name: 'onRefresh', payload: 'none', title: { zh: '刷新时', en: 'On refresh' } },
    { name: 'onExport', payload: 'none', title: { zh: '导出时', en: 'On export' } },
    {
      name: 'onPageChange',
      payload: 'object',
      title: { zh: '翻页时', en: 'On page change' },
      doc: { zh: '{ index, size }：新的页码和每页条数', en: '{ index, size }: the new page and page size' },
    },
  ],
  data: 'rows',
  // Bound to a table, end users get the data view list menu entries open (it loads its own rows).
  dataView: true,
  // The designer's panel, loaded only there (the runtime never fetches it).
  panel: () => import('./panel.tsx').then((m) => m.TablePanel),
  meta: {
    title: { zh: '表格', en: 'Table' },
    icon: 'TableOutlined',
    size: { width: 800, height: 400 },
  },
});
