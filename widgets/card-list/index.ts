import { defineWidget } from '../define.ts';
import schema from './schema.json' with { type: 'json' };

/**
 * Rows of a table as cards (a shop's goods, categories, orders, addresses): a grid of cards with the
 * image on top, or rows with the image at the left; each shows its title, subtitle, price and tag
 * fields. `filterField` / `filterValue` narrow the rows on the server (e.g. by the value of tabs).
 */
export default defineWidget({
  kind: 'card-list',
  category: 'baima',
  schema,
  render: () => import('./render.tsx').then((m) => m.CardListWidget),
  events: [
    { name: 'onItemClick', payload: 'record', title: { zh: '点击条目时', en: 'On item click' } },
    { name: 'onButtonClick', payload: 'record', title: { zh: '点击条目按钮时', en: 'On item button click' } },
  ],
  data: 'rows',
  meta: {
    title: { zh: '卡片列表', en: 'Card list' },
    icon: 'AppstoreOutlined',
    size: { width: 375, height: 480 },
  },
});
