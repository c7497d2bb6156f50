/**
 * Events test: two tasks, the second after the first; saves go nowhere. The drive moves the first
 * bar a day later with the keyboard (arrow right on the focused bar), as a keyboard user would.
 */
import type { KindFixture } from '../fixture.ts';

export default {
  props: {
    entity: 'tasks',
    titleField: 'name',
    startField: 'start',
    endField: 'end',
    dependencyField: 'after',
  },
  data: {
    rows: [
      { _id: 't1', name: 'Write', start: '2026-03-02', end: '2026-03-04', after: [] },
      { _id: 't2', name: 'Test', start: '2026-03-05', end: '2026-03-06', after: ['t1'] },
    ],
    meta: {
      fields: [
        { key: 'name', name: 'Name' },
        { key: 'start', name: 'Start', type: 'date' },
        { key: 'end', name: 'End', type: 'date' },
        { key: 'after', name: 'After', type: 'collection' },
      ] as never,
      total: 2,
    },
    loading: false,
  },
  runtime: { saveRecords: async () => {} },
  async drive(root, g) {
    const bar = root.querySelector('[data-task="t1"]')!;
    await g.key(bar, 'ArrowRight');
    await g.settle();
  },
} satisfies KindFixture;
