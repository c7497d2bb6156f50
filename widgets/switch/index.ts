import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

export default defineWidget({
  kind: 'switch',
  version: 2,
  category: 'input',
  schema,
  // Loaded on first render, so the registry (and the server) never pulls in React views or antd.
  render: () => import('./render.tsx').then((m) => m.SwitchWidget),
  migrations: [
    {
      to: 2,
      name: 'value-as-text',
      // v1 stored a boolean `checked` and antd's size names; the spec stores "true"/"false" and small/routine/large.
      up: ({ checked, ...rest }) => ({
        ...rest,
        value: checked === true || rest.value === true || rest.value === 'true' ? 'true' : 'false',
        size: rest.size === 'default' || rest.size === undefined ? 'routine' : rest.size,
      }),
    },
  ],
  events: [{ name: 'onChange', payload: 'value', title: { zh: '值改变时', en: 'On change' } }],
  meta: {
    title: { zh: '开关', en: 'Switch' },
    icon: 'SwapOutlined',
    size: { width: 60, height: 32 },
  },
});
