import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

/**
 * A phone app's bottom navigation: icons with labels, the current one in the active colour. A tap
 * fires `onSelect` with the item (`record.value` is its URL); with no actions of its own the app goes
 * to that URL.
 */
export default defineWidget({
  kind: 'tab-bar',
  category: 'baima',
  schema,
  render: () => import('./render.tsx').then((m) => m.TabBarWidget),
  events: [
    {
      name: 'onSelect',
      payload: 'record',
      title: { zh: '点击导航项时', en: 'On item tap' },
      doc: { zh: '导航项 { label, value, icon }', en: 'The item { label, value, icon }' },
    },
  ],
  defaultActions: {
    onSelect: (item) => {
      const url = typeof item === 'object' && item ? (item as { value?: unknown }).value : undefined;
      return typeof url === 'string' && url ? [{ type: 'navigate', url }] : [];
    },
  },
  meta: { title: { zh: '底部导航', en: 'Tab bar' }, icon: 'MenuOutlined', size: { width: 375, height: 56 } },
});
