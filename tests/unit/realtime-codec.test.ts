import { describe, expect, it } from 'vitest';
import { gunzipBounded } from '../../src/shared/envelope.ts';
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
  it('inflates no further than the cap: the trailer first, then the output itself', () => {
    const text = JSON.stringify({ pad: 'x'.repeat(1000) });
    const packed = packPayload(JSON.parse(text));
    expect(() => unpackPayload(packed, 500)).toThrow();
    expect(unpackPayload(packed, 2000)).toEqual(JSON.parse(text));
    // A trailer that claims less than the content holds: refused at the byte past the claim.
    const liar = packed.slice();
    liar[liar.length - 4] = 10;
    liar[liar.length - 3] = 0;
    expect(() => gunzipBounded(liar, 2000)).toThrow();
    // Only bytes: a number is not turned into an allocation.
    expect(() => unpackPayload((2 ** 30) as unknown as Uint8Array)).toThrow();
  });
});
