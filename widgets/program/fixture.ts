/** Events test: one program button to click. */
import type { KindFixture } from '../fixture.ts';

export default { props: { program: [{ flow: 'f1', name: 'Run', color: '#0098FF' }] } } satisfies KindFixture;
