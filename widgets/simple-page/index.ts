import { defineWidget } from '../define.ts';
import { SimplePageWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'simple-page',
  category: 'simple',
  schema,
  render: SimplePageWidget,
  meta: {
    title: { zh: '简易页面', en: 'Page view' },
    icon: 'FileOutlined',
    size: { width: 600, height: 400 },
  },
});
