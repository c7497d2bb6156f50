import { defineWidget } from '../define.ts';
import { ProgramWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'program',
  category: 'simple',
  schema,
  render: ProgramWidget,
  meta: {
    title: { zh: '程序按钮', en: 'Program buttons' },
    icon: 'ThunderboltOutlined',
    size: { width: 400, height: 120 },
  },
});
