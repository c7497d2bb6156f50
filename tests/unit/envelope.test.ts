import { gzipSync as nativeGzip } from 'node:zlib';
import { gcm } from '@noble/ciphers/aes.js';
import fc from 'fast-check';
import { gzipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  ENVELOPE_MAX_PLAIN,
  EnvelopeError,
  envelopeKey,
  fromBase64,
  open,
  openText,
  seal,
  sealText,
  toBase64,
} from '../../src/shared/envelope.ts';

const TOKEN = 'a-token-of-at-least-16-chars';

/** Seal raw gzip bytes exactly as `sealText` does, so tests can forge what is inside the cipher. */
function sealZipped(zipped: Uint8Array, token: string | undefined): string {
  const iv = new Uint8Array(12);
  globalThis.crypto.getRandomValues(iv);
  const sealed = gcm(envelopeKey(token), iv).encrypt(zipped);
  const out = new Uint8Array(1 + iv.length + sealed.length);
  out[0] = 1;
  out.set(iv, 1);
  out.set(sealed, 1 + iv.length);
  return toBase64(out);
}

function mutate(sealed: string, f: (bytes: Uint8Array) => Uint8Array): string {
  return toBase64(f(fromBase64(sealed)));
}

/** The one error every failed open must throw, identical in class and message. */
function expectEnvelopeError(f: () => unknown): void {
  let caught: unknown;
  try {
    f();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(EnvelopeError);
  const e = caught as EnvelopeError;
  expect(e.name).toBe('EnvelopeError');
  expect(e.message).toBe(new EnvelopeError().message);
  expect(e.message).toBe('invalid envelope');
  expect(e.cause).toBeUndefined();
}

describe('seal / open', () => {
  it('round trips any JSON value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.option(fc.string({ minLength: 0, maxLength: 40 })), (value, token) => {
        const expected = JSON.parse(JSON.stringify(value)) as unknown;
        expect(open(seal(value, token), token)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('round trips unicode and a large payload', () => {
    const value = { text: '中文 😀 \u0000 \u2028', rows: Array.from({ length: 5000 }, (_, i) => ({ i })) };
    expect(open(seal(value, TOKEN), TOKEN)).toEqual(value);
  });

  it('seals undefined as null', () => {
    expect(open(seal(undefined, TOKEN), TOKEN)).toBeNull();
  });

  it('sealing twice gives different texts (fresh IV)', () => {
    expect(seal({ a: 1 }, TOKEN)).not.toBe(seal({ a: 1 }, TOKEN));
  });

  it('openText answers the JSON text', () => {
    expect(openText(sealText('{"a":1}', TOKEN), TOKEN)).toBe('{"a":1}');
  });
});

describe('keys', () => {
  it('a token shorter than 16 characters uses the default key', () => {
    const short = 'short-token';
    expect(envelopeKey(short)).toEqual(envelopeKey(undefined));
    expect(envelopeKey('')).toEqual(envelopeKey(null));
    expect(envelopeKey('x'.repeat(15))).toEqual(envelopeKey(undefined));
    // So any short token (or none) opens what another short token sealed.
    expect(open(seal({ ok: 1 }, short), undefined)).toEqual({ ok: 1 });
    expect(open(seal({ ok: 1 }, undefined), 'other')).toEqual({ ok: 1 });
  });

  it('a 16-character token has its own key', () => {
    expect(envelopeKey('x'.repeat(16))).not.toEqual(envelopeKey(undefined));
    expect(envelopeKey('x'.repeat(16))).not.toEqual(envelopeKey('y'.repeat(16)));
    expect(envelopeKey(TOKEN)).toHaveLength(16);
  });
});

describe('every failed open throws the one EnvelopeError', () => {
  const good = seal({ hello: 'world', n: [1, 2, 3] }, TOKEN);
  const cases: Array<[string, () => unknown]> = [
    ['wrong token', () => open(good, 'another-token-of-16+')],
    ['no token', () => open(good, undefined)],
    ['short token', () => open(good, 'short')],
    [
      'tampered ciphertext byte',
      () =>
        open(
          mutate(good, (b) => {
            b[20]! ^= 1;
            return b;
          }),
          TOKEN,
        ),
    ],
    [
      'tampered IV byte',
      () =>
        open(
          mutate(good, (b) => {
            b[1]! ^= 0x80;
            return b;
          }),
          TOKEN,
        ),
    ],
    [
      'tampered tag byte',
      () =>
        open(
          mutate(good, (b) => {
            b[b.length - 1]! ^= 1;
            return b;
          }),
          TOKEN,
        ),
    ],
    [
      'truncated by one byte',
      () =>
        open(
          mutate(good, (b) => b.subarray(0, b.length - 1)),
          TOKEN,
        ),
    ],
    [
      'truncated to the header',
      () =>
        open(
          mutate(good, (b) => b.subarray(0, 13)),
          TOKEN,
        ),
    ],
    ['one byte', () => open(toBase64(new Uint8Array([1])), TOKEN)],
    ['empty string', () => open('', TOKEN)],
    [
      'wrong version',
      () =>
        open(
          mutate(good, (b) => {
            b[0] = 2;
            return b;
          }),
          TOKEN,
        ),
    ],
    [
      'version zero',
      () =>
        open(
          mutate(good, (b) => {
            b[0] = 0;
            return b;
          }),
          TOKEN,
        ),
    ],
    ['non-base64 characters', () => open('not base64!!', TOKEN)],
    [
      'base64url alphabet',
      () => open(good.replace(/\+/g, '-').replace(/\//g, '_').replace(/^./, '-'), TOKEN),
    ],
    ['embedded whitespace', () => open(`${good.slice(0, 10)} ${good.slice(10)}`, TOKEN)],
    ['number', () => open(12345, TOKEN)],
    ['null', () => open(null, TOKEN)],
    ['undefined', () => open(undefined, TOKEN)],
    ['object', () => open({ encrypted: good }, TOKEN)],
    ['array', () => open([good], TOKEN)],
    ['bytes', () => open(fromBase64(good), TOKEN)],
    ['valid cipher, not gzip', () => open(sealZipped(strToU8('{"a":1} plain, not gzip'), TOKEN), TOKEN)],
    ['valid gzip, not JSON', () => open(sealText('{not json', TOKEN), TOKEN)],
    ['valid gzip, empty text', () => open(sealText('', TOKEN), TOKEN)],
    [
      'gzip bomb (real: 17 MiB of zeros)',
      () => open(sealZipped(gzipSync(new Uint8Array(ENVELOPE_MAX_PLAIN + 1024 * 1024)), TOKEN), TOKEN),
    ],
    [
      'gzip bomb (trailer size above the limit)',
      () => {
        const zipped = gzipSync(strToU8('{"a":1}'));
        const n = zipped.length;
        const size = ENVELOPE_MAX_PLAIN + 1;
        zipped[n - 4] = size & 0xff;
        zipped[n - 3] = (size >>> 8) & 0xff;
        zipped[n - 2] = (size >>> 16) & 0xff;
        zipped[n - 1] = (size >>> 24) & 0xff;
        return open(sealZipped(zipped, TOKEN), TOKEN);
      },
    ],
    [
      'gzip trailer smaller than the content (truncating would hide the rest)',
      () => {
        const zipped = gzipSync(strToU8(`{"a":1}${' '.repeat(100)}garbage`));
        const n = zipped.length;
        zipped.fill(0, n - 4);
        zipped[n - 4] = 7;
        return open(sealZipped(zipped, TOKEN), TOKEN);
      },
    ],
    [
      'gzip bomb with a lying trailer (64 MiB of zeros, trailer says 10)',
      () => {
        // Node's own zlib builds the bomb: fflate took seconds for 64 MiB on a loaded machine.
        const zipped = new Uint8Array(nativeGzip(new Uint8Array(64 * 1024 * 1024)));
        const n = zipped.length;
        zipped.fill(0, n - 4);
        zipped[n - 4] = 10;
        return open(sealZipped(zipped, TOKEN), TOKEN);
      },
    ],
    [
      'gzip trailer larger than the content',
      () => {
        const zipped = gzipSync(strToU8('{"a":1}'));
        const n = zipped.length;
        zipped[n - 4] = 200;
        return open(sealZipped(zipped, TOKEN), TOKEN);
      },
    ],
    [
      'gzip trailer saying 4 GiB - 1',
      () => {
        const zipped = gzipSync(strToU8('{"a":1}'));
        zipped.fill(0xff, zipped.length - 4);
        return open(sealZipped(zipped, TOKEN), TOKEN);
      },
    ],
  ];

  it.each(cases)('%s', (_label, f) => {
    expectEnvelopeError(f);
  });

  it('openText fails the same way as open', () => {
    expectEnvelopeError(() => openText('AAAA', TOKEN));
    expectEnvelopeError(() => openText(good, 'another-token-of-16+'));
  });

  it('the payload just under the limit still opens', () => {
    const text = JSON.stringify('x'.repeat(1024 * 1024));
    expect(openText(sealText(text, TOKEN), TOKEN)).toBe(text);
  });
});
