import { defineWidget } from '../define.ts';
import { DropdownWidget } from './render.tsx';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'dropdown',
  category: 'input',
  schema,
  render: DropdownWidget,
  meta: {
    title: { zh: '下拉框', en: 'Dropdown' },
    icon: 'DownSquareOutlined',
    size: { width: 200, height: 32 },
  },
});
