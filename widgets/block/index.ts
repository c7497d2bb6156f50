import { defineWidget } from '../define.ts';
import { BlockWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'block',
  category: 'container',
  schema,
  render: BlockWidget,
  meta: {
    title: { zh: '区块', en: 'Block' },
    icon: 'LayoutOutlined',
    size: { width: 400, height: 200 },
    container: true,
  },
});
