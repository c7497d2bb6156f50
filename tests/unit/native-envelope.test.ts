import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { nativePrimitives } from '../../src/server/http/native-envelope.ts';
import {
  EnvelopeError,
  jsEnvelopePrimitives,
  open,
  seal,
  setEnvelopePrimitives,
} from '../../src/shared/envelope.ts';

// The browser seals with the pure-JS primitives and the server with Node's: each must read the other.
describe('native and JS envelope primitives interoperate', () => {
  afterEach(() => setEnvelopePrimitives(jsEnvelopePrimitives));

  it('JS-sealed opens natively and native-sealed opens in JS', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ minLength: 16, maxLength: 64 }), (value, token) => {
        const expected = JSON.parse(JSON.stringify(value ?? null));
        setEnvelopePrimitives(jsEnvelopePrimitives);
        const byJs = seal(value, token);
        setEnvelopePrimitives(nativePrimitives);
        expect(open(byJs, token)).toEqual(expected);
        const byNative = seal(value, token);
        setEnvelopePrimitives(jsEnvelopePrimitives);
        expect(open(byNative, token)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('native gunzip stops at the limit (gzip bomb) and open answers the one envelope error', () => {
    const bomb = new Uint8Array(gzipSync(Buffer.alloc(32 * 1024 * 1024, 0x20)));
    expect(() => nativePrimitives.gunzip(bomb, 16 * 1024 * 1024)).toThrow();
    expect(() => jsEnvelopePrimitives.gunzip(bomb, 16 * 1024 * 1024)).toThrow();
    // A trailer that understates the size is refused, not silently cut short.
    const text = new Uint8Array(gzipSync(Buffer.from('{"a":"hello world"}')));
    expect(() => nativePrimitives.gunzip(text, 5)).toThrow();
    expect(() => jsEnvelopePrimitives.gunzip(text, 5)).toThrow();
    expect(new TextDecoder().decode(nativePrimitives.gunzip(text, 19))).toBe('{"a":"hello world"}');
    setEnvelopePrimitives(nativePrimitives);
    expect(() => open('AAAA', 'x'.repeat(20))).toThrow(EnvelopeError);
  });
});
