/**
 * The request envelope in the browser on the platform's own primitives: WebCrypto's HKDF and AES-GCM,
 * and CompressionStream / DecompressionStream for gzip. They are native code (WebCrypto works off the
 * main thread), so every sealed call and answer costs the page far less than the pure-JS cipher and
 * inflater, and the entry bundle carries neither. Where they are missing (WebCrypto needs a secure
 * context, so a page served over plain http from another host has none), the pure-JS primitives
 * (`shared/envelope.ts`) load on first use. The bytes are the same either way: the format, the key
 * derivation's inputs and the size checks live in `shared/envelope-core.ts`.
 */
import {
  boundedPlainSize,
  ENVELOPE_INFO,
  ENVELOPE_MAX_PLAIN,
  ENVELOPE_SALT,
  EnvelopeError,
  envelopeIv,
  envelopeSecret,
  frameSealed,
  strFromU8,
  strToU8,
  unframeSealed,
} from '../../shared/envelope-core.ts';

/** True when this page has WebCrypto and the compression streams (any secure context today). */
export function nativeEnvelope(): boolean {
  return (
    typeof globalThis.crypto?.subtle?.deriveKey === 'function' &&
    typeof globalThis.CompressionStream === 'function' &&
    typeof globalThis.DecompressionStream === 'function'
  );
}

/** The pure-JS envelope, loaded only where the native primitives are missing. */
const jsEnvelope = () => import('../../shared/envelope.ts');

const AES = { name: 'AES-GCM', length: 128 } as const;
const keys = new Map<string, Promise<CryptoKey>>();

/** A token's AES-128-GCM key: HKDF-SHA256 of its secret to 16 bytes, as `envelopeKey`; kept per secret. */
function aesKey(token: string | null | undefined): Promise<CryptoKey> {
  const secret = envelopeSecret(token);
  let key = keys.get(secret);
  if (!key) {
    const subtle = globalThis.crypto.subtle;
    key = subtle
      .importKey('raw', strToU8(secret), 'HKDF', false, ['deriveKey'])
      .then((base) =>
        subtle.deriveKey(
          { name: 'HKDF', hash: 'SHA-256', salt: ENVELOPE_SALT, info: ENVELOPE_INFO },
          base,
          AES,
          false,
          ['encrypt', 'decrypt'],
        ),
      );
    // A browser holds one or two tokens; the cap only keeps a long-lived tab from growing.
    if (keys.size >= 8) keys.clear();
    keys.set(secret, key);
    key.catch(() => keys.delete(secret));
  }
  return key;
}

/** Straight into the stream's writer: a `Blob` source costs a synchronous trip to the browser process per call. */
async function gzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new CompressionStream('gzip');
  const writer = stream.writable.getWriter();
  void writer.write(bytes).catch(() => undefined);
  void writer.close().catch(() => undefined);
  return new Uint8Array(await new Response(stream.readable).arrayBuffer());
}

/** Deflate input fed per step: 16 KiB inflates to at most ~16 MiB, so one step never runs far past the size. */
const INFLATE_STEP = 16 * 1024;

/**
 * Inflate to exactly `size` bytes, as the pure-JS and Node primitives do: the input goes in small steps
 * and inflating stops at the first byte past the announced size (a lying trailer, a second member);
 * fewer bytes than announced, or broken data, fail too. Throws EnvelopeError.
 */
async function gunzipExactly(
  zipped: Uint8Array<ArrayBuffer>,
  size: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new DecompressionStream('gzip');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const feeding = (async () => {
    for (let i = 0; i < zipped.length; i += INFLATE_STEP) {
      await writer.ready;
      await writer.write(zipped.subarray(i, i + INFLATE_STEP));
    }
    await writer.close();
  })();
  // A refused stream fails the reads below; this only keeps the writer's own failure from going unheard.
  feeding.catch(() => undefined);
  const out = new Uint8Array(size);
  let at = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (at + value.length > size) throw new EnvelopeError();
      out.set(value, at);
      at += value.length;
    }
    await feeding;
  } catch {
    void reader.cancel().catch(() => undefined);
    void writer.abort().catch(() => undefined);
    throw new EnvelopeError();
  }
  if (at !== size) throw new EnvelopeError();
  return out;
}

/** Seal a value (JSON, gzip, AES-GCM, base64): the same text `seal` of `shared/envelope.ts` makes. */
export async function sealValue(value: unknown, token: string | null | undefined): Promise<string> {
  const json = JSON.stringify(value ?? null);
  if (!nativeEnvelope()) return (await jsEnvelope()).sealText(json, token);
  const iv = envelopeIv();
  const zipped = await gzip(strToU8(json));
  const sealed = await globalThis.crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await aesKey(token), zipped);
  return frameSealed(iv, new Uint8Array(sealed));
}

/** Open a sealed value; every failure is the one EnvelopeError, as `open` of `shared/envelope.ts`. */
export async function openValue<T = unknown>(sealed: unknown, token: string | null | undefined): Promise<T> {
  if (!nativeEnvelope()) return (await jsEnvelope()).open<T>(sealed, token);
  let text: string;
  try {
    const { iv, body } = unframeSealed(sealed);
    const plain = await globalThis.crypto.subtle.decrypt({ name: 'AES-GCM', iv }, await aesKey(token), body);
    const zipped = new Uint8Array(plain);
    text = strFromU8(await gunzipExactly(zipped, boundedPlainSize(zipped, ENVELOPE_MAX_PLAIN)));
  } catch {
    throw new EnvelopeError();
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new EnvelopeError();
  }
}
