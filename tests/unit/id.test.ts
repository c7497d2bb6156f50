import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compressId, expandId, idTime, isId, newId, normalizeId } from '../../src/shared/id.ts';

const hexId = fc.stringMatching(/^[0-9a-f]{24}$/);

describe('newId', () => {
  it('is 24 lower-case hex characters', () => {
    for (let i = 0; i < 100; i++) expect(newId()).toMatch(/^[0-9a-f]{24}$/);
  });

  it('carries its creation second', () => {
    const now = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
    expect(idTime(newId(now))).toBe(Math.floor(now / 1000) * 1000);
  });

  it('increases within one process, also within one second', () => {
    const now = Date.now();
    const ids = Array.from({ length: 500 }, () => newId(now));
    // The counter wraps at 2^24; a wrap inside 500 ids is possible only from a start near the top.
    const sorted = [...ids].sort();
    const wrapped = ids.some((id, i) => i > 0 && id < ids[i - 1]!);
    if (!wrapped) expect(ids).toEqual(sorted);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('later seconds sort after earlier ones', () => {
    const a = newId(1_700_000_000_000);
    const b = newId(1_700_000_001_000);
    expect(a < b).toBe(true);
  });
});

describe('compressId / expandId', () => {
  it('round trips a fresh id to 16 base64url characters', () => {
    const id = newId();
    const short = compressId(id);
    expect(short).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(expandId(short)).toBe(id);
  });

  it('round trips edge ids', () => {
    for (const id of ['0'.repeat(24), 'f'.repeat(24), '0123456789abcdef01234567']) {
      expect(expandId(compressId(id))).toBe(id);
    }
    expect(compressId('0'.repeat(24))).toBe('AAAAAAAAAAAAAAAA');
    expect(compressId('f'.repeat(24))).toBe('________________');
  });

  it('round trips any 24-hex id (property)', () => {
    fc.assert(
      fc.property(hexId, (id) => {
        const short = compressId(id);
        return short.length === 16 && expandId(short) === id;
      }),
    );
  });

  it('round trips any compressed form (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{16}$/), (short) => compressId(expandId(short)) === short),
    );
  });

  it.each([
    ['empty', ''],
    ['23 chars', 'a'.repeat(23)],
    ['25 chars', 'a'.repeat(25)],
    ['upper case', 'A'.repeat(24)],
    ['non hex', 'g'.repeat(24)],
    ['padded', ` ${'a'.repeat(23)}`],
  ])('compressId rejects %s', (_name, value) => {
    expect(() => compressId(value)).toThrow(TypeError);
  });

  it.each([
    ['empty', ''],
    ['15 chars', 'A'.repeat(15)],
    ['17 chars', 'A'.repeat(17)],
    ['plus sign', `${'A'.repeat(15)}+`],
    ['slash', `${'A'.repeat(15)}/`],
    ['padding', `${'A'.repeat(15)}=`],
  ])('expandId rejects %s', (_name, value) => {
    expect(() => expandId(value)).toThrow(TypeError);
  });

  it('rejects non-strings', () => {
    expect(() => compressId(42 as unknown as string)).toThrow(TypeError);
  });
});

describe('isId / normalizeId', () => {
  it('accepts only lower-case 24-hex strings as ids', () => {
    expect(isId(newId())).toBe(true);
    expect(isId('A'.repeat(24))).toBe(false);
    expect(isId(123)).toBe(false);
    expect(isId(null)).toBe(false);
    expect(isId(undefined)).toBe(false);
  });

  it('answers the 24-hex id for either form', () => {
    const id = newId();
    expect(normalizeId(id)).toBe(id);
    expect(normalizeId(compressId(id))).toBe(id);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['number', 42],
    ['object', { id: 'x' }],
    ['empty', ''],
    ['upper hex', 'ABCDEF0123456789ABCDEF01'],
    ['17 chars', 'A'.repeat(17)],
    ['20 chars', 'a'.repeat(20)],
  ])('answers undefined for %s', (_name, value) => {
    expect(normalizeId(value)).toBeUndefined();
  });
});
