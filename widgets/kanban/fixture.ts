/**
 * Events test: a board of two columns with a card each; moves are saved (nowhere). The drive lays the
 * board out (jsdom has none: columns side by side, cards stacked) and moves the first card to the
 * next column with the keyboard (pick up, arrow right, drop), as a keyboard user would.
 */
import type { KindFixture } from '../fixture.ts';

function rect(left: number, top: number, width: number, height: number): DOMRect {
  const r = { x: left, y: top, left, top, width, height, right: left + width, bottom: top + height };
  return { ...r, toJSON: () => r } as DOMRect;
}

/** Box of a column or card by its place on the board; undefined for other elements. */
function boxOf(el: Element): DOMRect | undefined {
  const column = el.closest('[data-column]');
  if (!column) return undefined;
  const i = [...column.parentElement!.querySelectorAll(':scope > [data-column]')].indexOf(column);
  if (el === column) return rect(i * 300, 0, 260, 600);
  const card = el.closest('[data-card]');
  if (!card) return undefined;
  const j = [...column.querySelectorAll('[data-card]')].indexOf(card);
  return rect(i * 300 + 8, 40 + j * 60, 244, 50);
}

export default {
  props: { entity: 'tasks', groupField: 'status', titleField: 'name', rankField: 'rank' },
  data: {
    rows: [
      { _id: 't1', name: 'Write', status: 'todo', rank: 1 },
      { _id: 't2', name: 'Test', status: 'done', rank: 1 },
    ],
    meta: {
      fields: [
        { key: 'name', name: 'Name' },
        { key: 'status', name: 'Status', option: { info: { list: ['todo', 'done'] } } },
        { key: 'rank', name: 'Rank', type: 'number' },
      ] as never,
      total: 2,
    },
    loading: false,
  },
  runtime: { saveRecords: async () => {} },
  async drive(root, g) {
    const plain = Element.prototype.getBoundingClientRect;
    Element.prototype.getBoundingClientRect = function (this: Element) {
      return boxOf(this) ?? plain.call(this);
    };
    try {
      const card = root.querySelector('[data-card="t1"]')!;
      await g.key(card, 'Space');
      await g.settle();
      await g.key(card, 'ArrowRight');
      await g.settle();
      await g.key(card, 'Space');
      await g.settle();
    } finally {
      Element.prototype.getBoundingClientRect = plain;
    }
  },
} satisfies KindFixture;
