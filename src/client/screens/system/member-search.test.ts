import { describe, expect, it } from 'vitest';
import { matchesMember } from './member-search.ts';

const m = { name: 'Alice Wong', nickname: 'Alice Wong', account: 'alice01', phone: '13900001234' };

describe('member search', () => {
  it.each([
    ['', true],
    ['  ', true],
    ['alice', true],
    ['WONG', true],
    ['1234', true],
    ['bob', false],
  ])('%j → %s', (text, hit) => {
    expect(matchesMember(m, text)).toBe(hit);
  });
  it('a member without account or phone is matched by name only', () => {
    expect(matchesMember({ ...m, account: null, phone: null }, '139')).toBe(false);
  });
});
