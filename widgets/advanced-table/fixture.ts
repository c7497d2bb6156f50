/** Events test: more rows than a page, so paging fires onChange. */
import type { KindFixture } from '../fixture.ts';

export default { props: { pageSize: 1 } } satisfies KindFixture;
