import { describe, expect, it } from 'vitest';
import { choiceToStore, type ShellProjectInput, shellProjectId } from './current-project.ts';

const p = (id: string, role: string | null, owner = 'x') => ({ _id: id, role, _owner: owner });
const base: ShellProjectInput = { route: null, custom: null, stored: null, projects: null, userId: 'me' };

describe('the shell project', () => {
  it('a member who signed in through the form (nothing stored) gets their only system once the list is in', () => {
    expect(shellProjectId(base)).toBeNull();
    expect(shellProjectId({ ...base, projects: [p('m', 'common')] })).toBe('m');
  });
  it('the path project wins, then the custom prefix, then the stored choice', () => {
    const projects = [p('a', 'common'), p('b', 'owner', 'me')];
    expect(shellProjectId({ ...base, route: 'r', custom: 'c', stored: 'a', projects })).toBe('r');
    expect(shellProjectId({ ...base, custom: 'c', stored: 'a', projects })).toBe('c');
    expect(shellProjectId({ ...base, stored: 'a', projects })).toBe('a');
  });
  it('the stored choice stands in while the list is on its way, and is dropped when no longer joined', () => {
    expect(shellProjectId({ ...base, stored: 'gone' })).toBe('gone');
    expect(shellProjectId({ ...base, stored: 'gone', projects: [p('a', 'common')] })).toBe('a');
  });
  it('no systems at all: none', () => {
    expect(shellProjectId({ ...base, projects: [] })).toBeNull();
  });
});

describe('the choice remembered', () => {
  const projects = [p('a', 'common'), p('b', 'common')];
  it('stores the shown system the user belongs to, when it differs from the stored one', () => {
    expect(choiceToStore({ ...base, projects }, 'a')).toBe('a');
    expect(choiceToStore({ ...base, stored: 'a', route: 'b', projects }, 'b')).toBe('b');
    expect(choiceToStore({ ...base, stored: 'a', projects }, 'a')).toBeNull();
  });
  it('never while the list is on its way, under a custom prefix, or for a system the user is not in', () => {
    expect(choiceToStore(base, 'a')).toBeNull();
    expect(choiceToStore({ ...base, custom: 'a', projects }, 'a')).toBeNull();
    expect(choiceToStore({ ...base, route: 'z', projects }, 'z')).toBeNull();
  });
});
