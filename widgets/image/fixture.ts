/** Events test: an image shows (and can be clicked) only with a source. */
import type { KindFixture } from '../fixture.ts';

export default { props: { src: 'https://example.com/a.png' } } satisfies KindFixture;
