import { describe, expect, it } from 'vitest';
import { canBuild, selectProject } from './project-select.ts';

const p = (id: string, role: string | null, owner = 'x') => ({ _id: id, role, _owner: owner });

describe('project selection', () => {
  const list = [p('a', 'common'), p('b', 'admin'), p('c', 'owner', 'me'), p('d', 'admin')];
  it.each([
    ['d', 'd'],
    [null, 'c'],
    ['gone', 'c'],
  ])('stored %s → %s', (stored, expected) => {
    expect(selectProject(list, stored, 'me')?._id).toBe(expected);
  });
  it('no owned project: the first admin one, else the first', () => {
    expect(selectProject([p('a', 'common'), p('b', 'admin')], null, 'me')?._id).toBe('b');
    expect(selectProject([p('a', 'common'), p('b', 'public')], null, 'me')?._id).toBe('a');
    expect(selectProject([], null, 'me')).toBeNull();
  });
  it('only owners and admins build', () => {
    expect([p('a', 'owner'), p('b', 'admin'), p('c', 'common'), p('d', null)].map(canBuild)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
