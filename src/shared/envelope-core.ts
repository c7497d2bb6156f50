/**
 * The request envelope's format (runtime spec §7, with the design's change of cipher): a JSON body is
 * gzip-compressed, then sealed with AES-128-GCM under a 16-byte key derived by HKDF-SHA256 from the
 * caller's token, and sent as `{ encrypted: base64(version | iv | ciphertext+tag) }`. A token shorter
 * than 16 characters (or none) falls back to the built-in default key, as the spec says.
 *
 * The cipher, hash and gzip come from primitives installed by the side that runs it: `envelope.ts`
 * installs pure-JS ones (browsers, tests), the server Node's native ones. This file imports no
 * package, so the server never loads the pure-JS ones (about 400 KB of sources held for good).
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const strToU8 = (text: string) => encoder.encode(text);
const strFromU8 = (bytes: Uint8Array) => decoder.decode(bytes);

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** HKDF-SHA256's salt and info for the key (the browser's WebCrypto path derives with them too). */
export const ENVELOPE_SALT = strToU8('lowcode-envelope/v1');
export const ENVELOPE_INFO = strToU8('aes-128-gcm');
const DEFAULT_SECRET = 'lowcode-default-envelope-key';
/** The largest decompressed payload we accept: guards against gzip bombs. */
export const ENVELOPE_MAX_PLAIN = 16 * 1024 * 1024;

/** Every failed open throws this one error, whatever went wrong. */
export class EnvelopeError extends Error {
  constructor() {
    super('invalid envelope');
    this.name = 'EnvelopeError';
  }
}

/**
 * The primitives under the format. The default is pure JS; the server swaps in native ones
 * (`setEnvelopePrimitives`) for speed. Format, keys and checks stay here, shared.
 */
export interface EnvelopePrimitives {
  /** HKDF-SHA256 to 16 bytes. */
  deriveKey(secret: Uint8Array, salt: Uint8Array, info: Uint8Array): Uint8Array;
  /** AES-128-GCM: answers ciphertext ‖ 16-byte tag. */
  encrypt(key: Uint8Array, iv: Uint8Array, plain: Uint8Array): Uint8Array;
  /** Inverse of encrypt; throws on a bad tag. */
  decrypt(key: Uint8Array, iv: Uint8Array, sealed: Uint8Array): Uint8Array;
  gzip(data: Uint8Array): Uint8Array;
  /**
   * Inflate to exactly `size` bytes (the gzip trailer's figure, already checked against the limit);
   * throw when the content is larger, smaller or broken, never inflating far past `size`.
   */
  gunzip(data: Uint8Array, size: number): Uint8Array;
}

let primitives: EnvelopePrimitives | undefined;

function installed(): EnvelopePrimitives {
  if (!primitives) throw new Error('no envelope primitives installed (import shared/envelope.ts)');
  return primitives;
}

/** Use other (e.g. native) primitives; the format is unchanged. */
export function setEnvelopePrimitives(p: EnvelopePrimitives): void {
  primitives = p;
}

/** Install `p` unless primitives were installed already (the pure-JS default defers to native ones). */
export function defaultEnvelopePrimitives(p: EnvelopePrimitives): void {
  primitives ??= p;
}

/** Gzip with the installed primitives (socket payloads). */
export function gzipBytes(data: Uint8Array): Uint8Array {
  return installed().gzip(data);
}

/** UTF-8 bytes of a text, and back. */
export { strFromU8, strToU8 };

const keyCache = new Map<string, Uint8Array>();

/** The secret a token's key is derived from: the token, or the default when it is short or absent. */
export function envelopeSecret(token: string | null | undefined): string {
  return token && token.length >= 16 ? token : DEFAULT_SECRET;
}

/** The 16-byte key for a token. */
export function envelopeKey(token: string | null | undefined): Uint8Array {
  const secret = envelopeSecret(token);
  let key = keyCache.get(secret);
  if (!key) {
    key = installed().deriveKey(strToU8(secret), ENVELOPE_SALT, ENVELOPE_INFO);
    if (keyCache.size > 1000) keyCache.clear();
    keyCache.set(secret, key);
  }
  return key;
}

/** A fresh IV for one seal. */
export function envelopeIv(): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(IV_BYTES);
  globalThis.crypto.getRandomValues(b);
  return b;
}

const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/** The platform's own base64 of byte arrays where it has one (Chromium 140+, Firefox 133+, Safari 18.2+). */
const NativeBase64 = Uint8Array as unknown as {
  fromBase64?: (text: string) => Uint8Array<ArrayBuffer>;
  prototype: { toBase64?: () => string };
};

export function toBase64(bytes: Uint8Array): string {
  if (NativeBase64.prototype.toBase64) return (bytes as unknown as { toBase64(): string }).toBase64();
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new EnvelopeError();
  if (NativeBase64.fromBase64) {
    try {
      return NativeBase64.fromBase64(text);
    } catch {
      throw new EnvelopeError();
    }
  }
  if (NodeBuffer) return new Uint8Array(NodeBuffer.from(text, 'base64'));
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** The sealed text: base64(version | iv | ciphertext+tag). */
export function frameSealed(iv: Uint8Array, sealed: Uint8Array): string {
  const out = new Uint8Array(1 + IV_BYTES + sealed.length);
  out[0] = VERSION;
  out.set(iv, 1);
  out.set(sealed, 1 + IV_BYTES);
  return toBase64(out);
}

/** The IV and ciphertext+tag of a sealed text; throws EnvelopeError when it cannot be one. */
export function unframeSealed(sealed: unknown): {
  iv: Uint8Array<ArrayBuffer>;
  body: Uint8Array<ArrayBuffer>;
} {
  if (typeof sealed !== 'string') throw new EnvelopeError();
  const bytes = fromBase64(sealed);
  if (bytes.length < 1 + IV_BYTES + TAG_BYTES || bytes[0] !== VERSION) throw new EnvelopeError();
  return { iv: bytes.subarray(1, 1 + IV_BYTES), body: bytes.subarray(1 + IV_BYTES) };
}

/** Seal already-serialised JSON text. */
export function sealText(json: string, token: string | null | undefined): string {
  const iv = envelopeIv();
  const p = installed();
  return frameSealed(iv, p.encrypt(envelopeKey(token), iv, p.gzip(strToU8(json))));
}

/** Seal a value: JSON, gzip, AES-GCM, base64. */
export function seal(value: unknown, token: string | null | undefined): string {
  return sealText(JSON.stringify(value ?? null), token);
}

/** The plain size a gzip stream announces in its trailer (mod 2^32), or -1 when it is not gzip. */
export function gzipPlainSize(zipped: Uint8Array): number {
  const n = zipped.length;
  if (n < 18 || zipped[0] !== 0x1f || zipped[1] !== 0x8b) return -1;
  return (zipped[n - 4]! | (zipped[n - 3]! << 8) | (zipped[n - 2]! << 16) | (zipped[n - 1]! << 24)) >>> 0;
}

/**
 * The plain size a gzip stream announces, refused (EnvelopeError) when it is not gzip or announces
 * more than `max`: bombs are turned away before anything is inflated.
 */
export function boundedPlainSize(zipped: Uint8Array, max: number): number {
  const size = gzipPlainSize(zipped);
  if (size < 0 || size > max) throw new EnvelopeError();
  return size;
}

/**
 * Inflate gzip bytes whose plain size may be at most `max`: the size the trailer announces is checked
 * against `max` before anything is inflated, and inflating stops at the first byte past that size (a
 * trailer that lies, or several gzip members, cannot make it produce more). Throws EnvelopeError.
 * Every place that inflates bytes a client sent goes through here (envelope bodies, socket payloads).
 */
export function gunzipBounded(zipped: Uint8Array, max: number): Uint8Array {
  const size = boundedPlainSize(zipped, max);
  try {
    return installed().gunzip(zipped, size);
  } catch {
    throw new EnvelopeError();
  }
}

/** Open to the JSON text; throws EnvelopeError on any failure. */
export function openText(sealed: unknown, token: string | null | undefined): string {
  try {
    const { iv, body } = unframeSealed(sealed);
    const zipped = installed().decrypt(envelopeKey(token), iv, body);
    return strFromU8(gunzipBounded(zipped, ENVELOPE_MAX_PLAIN));
  } catch {
    throw new EnvelopeError();
  }
}

/** Open a sealed value; throws EnvelopeError on any failure. */
export function open<T = unknown>(sealed: unknown, token: string | null | undefined): T {
  const text = openText(sealed, token);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new EnvelopeError();
  }
}

/** Header names of the envelope protocol. */
export const ENVELOPE_HEADERS = {
  /** Ask for a sealed answer (GET calls have no body to seal). */
  sealed: 'x-envelope',
  /** Debug mode: the answer also carries the plain data. */
  debug: 'x-debug',
} as const;
