import { describe, expect, it } from 'vitest';
import { GRANT_KINDS, type Grants } from '../../../shared/api/access.ts';
import type { MenuEntry } from '../../api/pages.ts';
import { menuTree, withTargets } from './grant-tree.ts';

const entry = (id: string, type: MenuEntry['_type'], parent: string | null, value: string | null, sort = 0) =>
  ({
    _id: id,
    _name: id,
    _type: type,
    _parent: parent,
    _value: value,
    _sort: sort,
    _program: [],
  }) as MenuEntry;
const empty = () => Object.fromEntries(GRANT_KINDS.map((k) => [k, [] as string[]])) as Grants;

describe('grants editor helpers', () => {
  it('nests menu entries by parent and sort; an entry whose parent is gone sits at the top', () => {
    const menus = [
      entry('b', 'table', 'dir', 't1', 2),
      entry('dir', 'dir', null, null, 1),
      entry('a', 'page', 'dir', 'p1', 1),
      entry('lost', 'page', 'gone', 'p2', 0),
    ];
    expect(menuTree(menus)).toEqual([
      { key: 'lost', title: 'lost', children: [] },
      {
        key: 'dir',
        title: 'dir',
        children: [
          { key: 'a', title: 'a', children: [] },
          { key: 'b', title: 'b', children: [] },
        ],
      },
    ]);
  });

  it('granting an entry grants its table or page once; directories bring nothing', () => {
    const menus = [
      entry('dir', 'dir', null, null),
      entry('a', 'page', 'dir', 'p1'),
      entry('b', 'table', null, 't1'),
    ];
    const g = { ...empty(), page: ['p1'] };
    const next = withTargets(g, ['dir', 'a', 'b'], menus);
    expect(next.page).toEqual(['p1']);
    expect(next.entity).toEqual(['t1']);
    expect(g.entity).toEqual([]);
  });
});
