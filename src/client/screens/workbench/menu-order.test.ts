import { describe, expect, it } from 'vitest';
import { menuRows, moveMenu, parentChoices } from './menu-order.ts';

const m = (id: string, sort: number, parent: string | null = null, type = 'table') => ({
  _id: id,
  _type: type,
  _parent: parent,
  _sort: sort,
});

// Top: a (dir) [a1, a2], b, c (dir) [c1]; x's parent is gone.
const list = [
  m('c', 3, null, 'dir'),
  m('a2', 5, 'a'),
  m('a', 0, null, 'dir'),
  m('b', 2),
  m('a1', 4, 'a'),
  m('c1', 6, 'c'),
  m('x', 1, 'gone'),
];

describe('menu order', () => {
  it('lists directories followed by their entries, with depth and end limits', () => {
    const rows = menuRows(list);
    expect(rows.map((r) => `${r.menu._id}:${r.depth}`)).toEqual([
      'a:0',
      'a1:1',
      'a2:1',
      'x:0',
      'b:0',
      'c:0',
      'c1:1',
    ]);
    const at = (id: string) => rows.find((r) => r.menu._id === id)!;
    expect([at('a').canUp, at('a').canDown]).toEqual([false, true]);
    expect([at('c').canUp, at('c').canDown]).toEqual([true, false]);
    expect([at('a1').canUp, at('a1').canDown]).toEqual([false, true]);
    expect([at('c1').canUp, at('c1').canDown]).toEqual([false, false]);
  });

  it('moves among siblings only and refuses at the ends', () => {
    expect(moveMenu(list, 'b', -1)).toEqual(['a', 'a1', 'a2', 'b', 'x', 'c', 'c1']);
    expect(moveMenu(list, 'a', 1)).toEqual(['x', 'a', 'a1', 'a2', 'b', 'c', 'c1']);
    expect(moveMenu(list, 'a2', -1)).toEqual(['a', 'a2', 'a1', 'x', 'b', 'c', 'c1']);
    expect(moveMenu(list, 'a', -1)).toBeNull();
    expect(moveMenu(list, 'c', 1)).toBeNull();
    expect(moveMenu(list, 'c1', 1)).toBeNull();
    expect(moveMenu(list, 'nope', 1)).toBeNull();
  });

  it('offers directories that are not the entry itself or inside it', () => {
    const nested = [...list, m('d', 7, 'a', 'dir'), m('d1', 8, 'd', 'dir')];
    expect(parentChoices(nested, null).map((x) => x._id)).toEqual(['a', 'd', 'd1', 'c']);
    expect(parentChoices(nested, 'a').map((x) => x._id)).toEqual(['c']);
    expect(parentChoices(nested, 'd').map((x) => x._id)).toEqual(['a', 'c']);
  });
});
