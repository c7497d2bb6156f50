import { describe, expect, it } from 'vitest';
import { packPayload, unpackPayload } from '../../src/shared/realtime.ts';

describe('socket payload codec', () => {
  const cases: unknown[] = [{}, null, { a: [1, 'two', { three: true }] }, 'text', { zh: '实时看板' }];
  for (const value of cases) {
    it(`round-trips ${JSON.stringify(value)}`, () => {
      const packed = packPayload(value);
      // gzip magic number
      expect([packed[0], packed[1]]).toEqual([0x1f, 0x8b]);
      expect(unpackPayload(packed)).toEqual(value);
      expect(
        unpackPayload(
          packed.buffer.slice(packed.byteOffset, packed.byteOffset + packed.byteLength) as ArrayBuffer,
        ),
      ).toEqual(value);
    });
  }
  it('rejects what is not gzip', () => {
    expect(() => unpackPayload(new TextEncoder().encode('{"a":1}'))).toThrow();
  });
});
