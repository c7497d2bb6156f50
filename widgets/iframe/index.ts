import { defineWidget } from '../define.ts';
import { IframeWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'iframe',
  category: 'simple',
  schema,
  render: IframeWidget,
  meta: {
    title: { zh: '内嵌网页', en: 'Web page' },
    icon: 'GlobalOutlined',
    size: { width: 600, height: 400 },
  },
});
