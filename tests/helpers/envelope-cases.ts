/**
 * Sealed texts that must not open, shared by the pure-JS envelope's tests and the browser's WebCrypto
 * one (same format, so both must refuse the same things with the one EnvelopeError).
 */
import { gzipSync as nativeGzip } from 'node:zlib';
import { gcm } from '@noble/ciphers/aes.js';
import { gzipSync, strToU8 } from 'fflate';
import {
  ENVELOPE_MAX_PLAIN,
  envelopeKey,
  fromBase64,
  seal,
  sealText,
  toBase64,
} from '../../src/shared/envelope.ts';

export const ENVELOPE_TOKEN = 'a-token-of-at-least-16-chars';
const TOKEN = ENVELOPE_TOKEN;

/** Seal raw gzip bytes exactly as `sealText` does, so tests can forge what is inside the cipher. */
export function sealZipped(zipped: Uint8Array, token: string | undefined): string {
  const iv = new Uint8Array(12);
  globalThis.crypto.getRandomValues(iv);
  const sealed = gcm(envelopeKey(token), iv).encrypt(zipped);
  const out = new Uint8Array(1 + iv.length + sealed.length);
  out[0] = 1;
  out.set(iv, 1);
  out.set(sealed, 1 + iv.length);
  return toBase64(out);
}

export function mutate(sealed: string, f: (bytes: Uint8Array) => Uint8Array): string {
  return toBase64(f(fromBase64(sealed)));
}

type OpenFn = (sealed: unknown, token: string | null | undefined) => unknown;

/** [label, attempt] pairs: each attempt calls `openFn` on something it must refuse. */
export function failedOpens(openFn: OpenFn): Array<[string, () => unknown]> {
  const good = seal({ hello: 'world', n: [1, 2, 3] }, TOKEN);
  return [
    ['wrong token', () => openFn(good, 'another-token-of-16+')],
    ['no token', () => openFn(good, undefined)],
    ['short token', () => openFn(good, 'short')],
    [
      'tampered ciphertext byte',
      () =>
        openFn(
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
        openFn(
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
        openFn(
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
        openFn(
          mutate(good, (b) => b.subarray(0, b.length - 1)),
          TOKEN,
        ),
    ],
    [
      'truncated to the header',
      () =>
        openFn(
          mutate(good, (b) => b.subarray(0, 13)),
          TOKEN,
        ),
    ],
    ['one byte', () => openFn(toBase64(new Uint8Array([1])), TOKEN)],
    ['empty string', () => openFn('', TOKEN)],
    [
      'wrong version',
      () =>
        openFn(
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
        openFn(
          mutate(good, (b) => {
            b[0] = 0;
            return b;
          }),
          TOKEN,
        ),
    ],
    ['non-base64 characters', () => openFn('not base64!!', TOKEN)],
    [
      'base64url alphabet',
      () => openFn(good.replace(/\+/g, '-').replace(/\//g, '_').replace(/^./, '-'), TOKEN),
    ],
    ['embedded whitespace', () => openFn(`${good.slice(0, 10)} ${good.slice(10)}`, TOKEN)],
    ['number', () => openFn(12345, TOKEN)],
    ['null', () => openFn(null, TOKEN)],
    ['undefined', () => openFn(undefined, TOKEN)],
    ['object', () => openFn({ encrypted: good }, TOKEN)],
    ['array', () => openFn([good], TOKEN)],
    ['bytes', () => openFn(fromBase64(good), TOKEN)],
    ['valid cipher, not gzip', () => openFn(sealZipped(strToU8('{"a":1} plain, not gzip'), TOKEN), TOKEN)],
    ['valid gzip, not JSON', () => openFn(sealText('{not json', TOKEN), TOKEN)],
    ['valid gzip, empty text', () => openFn(sealText('', TOKEN), TOKEN)],
    [
      'gzip bomb (real: 17 MiB of zeros)',
      () => openFn(sealZipped(gzipSync(new Uint8Array(ENVELOPE_MAX_PLAIN + 1024 * 1024)), TOKEN), TOKEN),
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
        return openFn(sealZipped(zipped, TOKEN), TOKEN);
      },
    ],
    [
      'gzip trailer smaller than the content (truncating would hide the rest)',
      () => {
        const zipped = gzipSync(strToU8(`{"a":1}${' '.repeat(100)}garbage`));
        const n = zipped.length;
        zipped.fill(0, n - 4);
        zipped[n - 4] = 7;
        return openFn(sealZipped(zipped, TOKEN), TOKEN);
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
        return openFn(sealZipped(zipped, TOKEN), TOKEN);
      },
    ],
    [
      'gzip trailer larger than the content',
      () => {
        const zipped = gzipSync(strToU8('{"a":1}'));
        const n = zipped.length;
        zipped[n - 4] = 200;
        return openFn(sealZipped(zipped, TOKEN), TOKEN);
      },
    ],
    [
      'gzip trailer saying 4 GiB - 1',
      () => {
        const zipped = gzipSync(strToU8('{"a":1}'));
        zipped.fill(0xff, zipped.length - 4);
        return openFn(sealZipped(zipped, TOKEN), TOKEN);
      },
    ],
  ];
}
