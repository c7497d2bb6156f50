import { defineWidget } from '../define.ts';
import { PageWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'page',
  category: 'baima',
  schema,
  render: PageWidget,
  meta: {
    title: { zh: '页面', en: 'Page' },
    icon: 'FileOutlined',
    size: { width: 600, height: 400 },
  },
});
