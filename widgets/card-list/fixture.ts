/** Events test: the item button shows only when the builder gives it a text. */
import type { KindFixture } from '../fixture.ts';

export default {
  props: { entity: 'things', titleField: 'name', priceField: 'amount', buttonText: 'Track' },
} satisfies KindFixture;
