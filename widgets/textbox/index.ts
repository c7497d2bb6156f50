import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'textbox',
  version: 2,
  category: 'input',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.TextboxWidget),
  migrations: [
    {
      to: 2,
      name: 'icon-type',
      // v1 had a boolean `icon` and `iconPosition` left/right; v2 has iconType none/prefix/suffix.
      up: ({ icon, iconPosition, ...rest }) => ({
        ...rest,
        iconType: icon === true ? (iconPosition === 'right' ? 'suffix' : 'prefix') : 'none',
      }),
    },
  ],
  events: [{ name: 'onChange', payload: 'value', title: { zh: '值改变时', en: 'On change' } }],
  meta: {
    title: { zh: '文本框', en: 'Text box' },
    icon: 'EditOutlined',
    size: { width: 200, height: 32 },
  },
});
