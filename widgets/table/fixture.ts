/** Events test: the toolbar's search, refresh and export on; more rows than a page, so it pages. */
import type { KindFixture } from '../fixture.ts';

export default {
  props: { search: true, refresh: true, export: true, pageSize: 1 },
} satisfies KindFixture;
