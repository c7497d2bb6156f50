import { describe, expect, it } from 'vitest';
import { rootsOf } from './scope-roots.ts';

describe('rootsOf', () => {
  it.each([
    [{ $expr: 'state.count + 1' }, ['state']],
    ['Hello {{ user.nickname }} of {{ params.id }}', ['params', 'user']],
    [{ a: [{ $expr: 'widgets.w1.value' }], b: 'record.name' }, ['widgets']],
    [{ $expr: 'upstate.x + users' }, []],
    [{ $expr: 'record.a || state.b' }, ['record', 'state']],
    ['no template: state', []],
  ])('%j reads %j', (value, roots) => {
    expect([...rootsOf(value)].sort()).toEqual(roots);
  });

  it('gives the same answer when asked again (the shared pattern keeps no position)', () => {
    const v = { $expr: 'state.a' };
    expect([...rootsOf(v)]).toEqual(['state']);
    expect([...rootsOf(v)]).toEqual(['state']);
  });
});
