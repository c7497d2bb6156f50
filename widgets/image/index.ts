import { defineWidget } from '../define.ts';
import { ImageWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'image',
  category: 'base',
  schema,
  render: ImageWidget,
  meta: {
    title: { zh: '图片', en: 'Image' },
    icon: 'PictureOutlined',
    size: { width: 200, height: 150 },
  },
});
