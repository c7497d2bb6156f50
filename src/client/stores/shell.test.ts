import { describe, expect, it } from 'vitest';
import type { Project } from '../api/account.ts';
import { useShell } from './shell.ts';

const project = (id: string, name: string) => ({ _id: id, _name: name, role: 'owner' }) as unknown as Project;

describe('the shell store’s list of systems', () => {
  it('keeps the list it holds when an equal one arrives (no subscriber runs), takes a changed one', () => {
    useShell.getState().setProjects([project('a', 'A')]);
    const held = useShell.getState().projects;
    let calls = 0;
    const stop = useShell.subscribe(() => calls++);
    useShell.getState().setProjects([project('a', 'A')]);
    expect(useShell.getState().projects).toBe(held);
    expect(calls).toBe(0);
    useShell.getState().setProjects([project('a', 'A renamed')]);
    expect(useShell.getState().projects?.[0]?._name).toBe('A renamed');
    useShell.getState().setProjects([project('a', 'A renamed'), project('b', 'B')]);
    expect(useShell.getState().projects).toHaveLength(2);
    useShell.getState().setProjects(null);
    expect(useShell.getState().projects).toBeNull();
    expect(calls).toBe(3);
    stop();
  });
});
