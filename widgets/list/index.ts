import { defineWidget } from '../define.ts';
import { ListWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'list',
  category: 'container',
  schema,
  render: ListWidget,
  meta: {
    title: { zh: '列表', en: 'List' },
    icon: 'BarsOutlined',
    size: { width: 400, height: 300 },
    container: true,
  },
});
