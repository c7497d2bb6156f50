/**
 * The request envelope with pure-JS primitives (noble + fflate), so the same code runs in Node and in
 * browsers, including pages served over plain http where WebCrypto is unavailable. Importing this
 * installs them unless others were installed first; the format lives in `envelope-core.ts`.
 */
import { gcm } from '@noble/ciphers/aes.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { Gunzip, gzipSync } from 'fflate';
import { defaultEnvelopePrimitives, EnvelopeError, type EnvelopePrimitives } from './envelope-core.ts';

export * from './envelope-core.ts';

export const jsEnvelopePrimitives: EnvelopePrimitives = {
  deriveKey: (secret, salt, info) => hkdf(sha256, secret, salt, info, 16),
  encrypt: (key, iv, plain) => gcm(key, iv).encrypt(plain),
  decrypt: (key, iv, sealed) => gcm(key, iv).decrypt(sealed),
  gzip: (data) => gzipSync(data, { level: 6 }),
  gunzip: (data, size) => inflateExactly(data, size),
};

// 16 KiB of deflate input inflates to at most ~16 MiB, so one step never allocates past the limit.
const INFLATE_STEP = 16 * 1024;

/**
 * Inflate, trusting the trailer's size only as an upper bound checked as we go: a trailer that lies
 * (smaller than the content) must neither truncate the text silently nor let a bomb burn CPU, so we
 * feed the input in small steps and stop at the first byte past the announced size.
 */
function inflateExactly(zipped: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  const inflater = new Gunzip((chunk) => {
    if (at + chunk.length > size) throw new EnvelopeError();
    out.set(chunk, at);
    at += chunk.length;
  });
  for (let i = 0; i < zipped.length; i += INFLATE_STEP) {
    inflater.push(zipped.subarray(i, i + INFLATE_STEP), i + INFLATE_STEP >= zipped.length);
  }
  if (at !== size) throw new EnvelopeError();
  return out;
}

defaultEnvelopePrimitives(jsEnvelopePrimitives);
