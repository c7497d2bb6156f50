import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

/**
 * Tabs a user picks one of (an order list's statuses, a category side bar): the chosen tab's value is
 * the widget's value (`widgets.<id>`), e.g. the filter value of a card list; each pick fires `onChange`.
 */
export default defineWidget({
  kind: 'tabs',
  category: 'input',
  schema,
  render: () => import('./render.tsx').then((m) => m.TabsWidget),
  events: [
    {
      name: 'onChange',
      payload: 'value',
      title: { zh: '切换标签时', en: 'On tab change' },
      doc: { zh: '选中标签的值', en: 'The value of the chosen tab' },
    },
  ],
  meta: {
    title: { zh: '标签页', en: 'Tabs' },
    icon: 'InsertRowAboveOutlined',
    size: { width: 375, height: 44 },
  },
});
