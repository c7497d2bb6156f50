import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en.ts';
import { zh } from '../i18n/zh.ts';
import { roleTitle } from './role-title.ts';

const tOf = (m: Record<string, unknown>) => (key: string) =>
  String(key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], m));

describe('role titles', () => {
  it('members read "Member" / "成员", never the stored type "common"', () => {
    expect(roleTitle('common', tOf(en))).toBe('Member');
    expect(roleTitle('common', tOf(zh))).toBe('成员');
    expect(['owner', 'admin', 'public'].map((r) => roleTitle(r, tOf(en)))).toEqual([
      'Owner',
      'Administrator',
      'Guest',
    ]);
  });
  it('no role or an unknown one: no title', () => {
    expect(roleTitle(null, tOf(en))).toBeNull();
    expect(roleTitle('root', tOf(en))).toBeNull();
  });
});
