import { describe, expect, it } from 'vitest';
import { filterRights } from './SavedFilters.tsx';

describe('saved filter rights (as access/decide.ts decides share writes)', () => {
  it('offers the project type to builders only', () => {
    expect(filterRights(true, 'u1').types).toEqual(['private', 'public', 'project']);
    expect(filterRights(false, 'u1').types).toEqual(['private', 'public']);
  });

  it("lets a member change their own private and public filters, not others' or the project's", () => {
    const member = filterRights(false, 'u1');
    expect(member.mayChange({ type: 'private', createdBy: 'u1' })).toBe(true);
    expect(member.mayChange({ type: 'public', createdBy: 'u1' })).toBe(true);
    expect(member.mayChange({ type: 'public', createdBy: 'u2' })).toBe(false);
    expect(member.mayChange({ type: 'public', createdBy: null })).toBe(false);
    expect(member.mayChange({ type: 'project', createdBy: 'u1' })).toBe(false);
  });

  it('lets a builder change every filter', () => {
    const builder = filterRights(true, 'b');
    for (const type of ['private', 'public', 'project'] as const)
      expect(builder.mayChange({ type, createdBy: 'someone' })).toBe(true);
  });
});
