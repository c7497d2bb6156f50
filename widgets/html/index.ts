import { defineWidget } from '../define.ts';
import { HtmlWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'html',
  category: 'simple',
  schema,
  render: HtmlWidget,
  meta: {
    title: { zh: 'HTML', en: 'HTML' },
    icon: 'Html5Outlined',
    size: { width: 400, height: 200 },
  },
});
