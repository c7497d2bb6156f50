import { describe, expect, it } from 'vitest';
import {
  buildMenuTree,
  closeTag,
  findEntry,
  type MenuEntry,
  pushTag,
  type RecentTag,
  type RecentUse,
  topUsed,
  useItem,
} from './menu.ts';

function e(id: string, parent: string | null, sort: number, type = 'page'): MenuEntry {
  return { _id: id, _type: type, name: id.toUpperCase(), _parent: parent, _value: `v${id}`, _sort: sort };
}

const ids = (nodes: { _id: string; _children: { _id: string }[] }[]): unknown =>
  nodes.map((n) => (n._children.length ? { [n._id]: ids(n._children as never) } : n._id));

describe('menu tree', () => {
  it('sorts by _sort and nests by _parent', () => {
    const tree = buildMenuTree([e('c', null, 3), e('a', null, 1, 'dir'), e('b', 'a', 2), e('d', 'a', 0)]);
    expect(ids(tree)).toEqual([{ a: ['d', 'b'] }, 'c']);
  });
  it('ties on _sort keep id order', () => {
    expect(ids(buildMenuTree([e('b', null, 1), e('a', null, 1)]))).toEqual(['a', 'b']);
  });
  it('accepts the nested shape the server answers and re-sorts it', () => {
    const nested: MenuEntry[] = [
      { ...e('a', null, 2, 'dir'), _children: [e('y', 'a', 5), e('x', 'a', 1)] },
      e('b', null, 1),
    ];
    expect(ids(buildMenuTree(nested))).toEqual(['b', { a: ['x', 'y'] }]);
  });
  it('an orphan (parent missing) hangs at the top', () => {
    expect(ids(buildMenuTree([e('a', 'gone', 1), e('b', null, 0)]))).toEqual(['b', 'a']);
  });
  it('a parent cycle is cut, not looped, and nothing is lost', () => {
    const tree = buildMenuTree([e('a', 'b', 1), e('b', 'a', 2), e('c', 'a', 3), e('s', 's', 0)]);
    const all: string[] = [];
    const walk = (ns: typeof tree) => {
      for (const n of ns) {
        all.push(n._id);
        walk(n._children);
      }
    };
    walk(tree);
    expect(all.sort()).toEqual(['a', 'b', 'c', 's']);
    expect(tree.map((n) => n._id)).toEqual(['s', 'a', 'b']);
    expect(findEntry(tree, (n) => n._id === 'c')).not.toBeNull();
  });
  it('duplicates appear once and bad items are skipped', () => {
    const tree = buildMenuTree([e('a', null, 1), e('a', null, 2), null as unknown as MenuEntry]);
    expect(ids(tree)).toEqual(['a']);
  });
  it('findEntry finds deep entries', () => {
    const tree = buildMenuTree([e('a', null, 1, 'dir'), e('b', 'a', 1, 'dir'), e('c', 'b', 1)]);
    expect(findEntry(tree, (n) => n._value === 'vc')?._id).toBe('c');
    expect(findEntry(tree, (n) => n._id === 'zz')).toBeNull();
  });
});

describe('recent tags', () => {
  const t = (p: string): RecentTag => ({ path: p, name: p });
  it('pushing an existing tag moves it to the end', () => {
    expect(pushTag([t('a'), t('b'), t('c')], t('a')).map((x) => x.path)).toEqual(['b', 'c', 'a']);
  });
  it('keeps at most 10, dropping the oldest', () => {
    let tags: RecentTag[] = [];
    for (let i = 0; i < 12; i++) tags = pushTag(tags, t(`p${i}`));
    expect(tags).toHaveLength(10);
    expect(tags[0]!.path).toBe('p2');
    expect(tags.at(-1)!.path).toBe('p11');
  });
  it('closing removes one', () => {
    expect(closeTag([t('a'), t('b')], 'a')).toEqual([t('b')]);
  });
});

describe('recently used', () => {
  const item = (id: string) => ({ id, type: 'page', name: id });
  it('counts uses and sorts by count', () => {
    let list: RecentUse[] = [];
    list = useItem(list, item('a'), null);
    list = useItem(list, item('b'), 'a');
    list = useItem(list, item('b'), 'a');
    expect(list.map((x) => [x.id, x.value])).toEqual([
      ['b', 2],
      ['a', 1],
    ]);
  });
  it('ignores a repeat of the same last item', () => {
    const list = useItem([{ ...item('a'), value: 1 }], item('a'), 'a');
    expect(list[0]!.value).toBe(1);
  });
  it('shows the top 4 of those still existing', () => {
    const list: RecentUse[] = ['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) => ({ ...item(id), value: 10 - i }));
    expect(topUsed(list, (id) => id !== 'b', 4).map((x) => x.id)).toEqual(['a', 'c', 'd', 'e']);
  });
});
