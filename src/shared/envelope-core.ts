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
const SALT = strToU8('lowcode-envelope/v1');
const INFO = strToU8('aes-128-gcm');
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

/** The 16-byte key for a token. */
export function envelopeKey(token: string | null | undefined): Uint8Array {
  const secret = token && token.length >= 16 ? token : DEFAULT_SECRET;
  let key = keyCache.get(secret);
  if (!key) {
    key = installed().deriveKey(strToU8(secret), SALT, INFO);
    if (keyCache.size > 1000) keyCache.clear();
    keyCache.set(secret, key);
  }
  return key;
}

function randomBytes(n: number): Uint8Array {
  const b = new Uint8Array(n);
  globalThis.crypto.getRandomValues(b);
  return b;
}

const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

export function toBase64(bytes: Uint8Array): string {
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

export function fromBase64(text: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new EnvelopeError();
  if (NodeBuffer) return new Uint8Array(NodeBuffer.from(text, 'base64'));
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** Seal already-serialised JSON text. */
export function sealText(json: string, token: string | null | undefined): string {
  const iv = randomBytes(IV_BYTES);
  const p = installed();
  const sealed = p.encrypt(envelopeKey(token), iv, p.gzip(strToU8(json)));
  const out = new Uint8Array(1 + IV_BYTES + sealed.length);
  out[0] = VERSION;
  out.set(iv, 1);
  out.set(sealed, 1 + IV_BYTES);
  return toBase64(out);
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
 * Inflate gzip bytes whose plain size may be at most `max`: the size the trailer announces is checked
 * against `max` before anything is inflated, and inflating stops at the first byte past that size (a
 * trailer that lies, or several gzip members, cannot make it produce more). Throws EnvelopeError.
 * Every place that inflates bytes a client sent goes through here (envelope bodies, socket payloads).
 */
export function gunzipBounded(zipped: Uint8Array, max: number): Uint8Array {
  // The gzip trailer holds the plain size (mod 2^32): refuse bombs before inflating.
  const size = gzipPlainSize(zipped);
  if (size < 0 || size > max) throw new EnvelopeError();
  try {
    return installed().gunzip(zipped, size);
  } catch {
    throw new EnvelopeError();
  }
}

/** Open to the JSON text; throws EnvelopeError on any failure. */
export function openText(sealed: unknown, token: string | null | undefined): string {
  try {
    if (typeof sealed !== 'string') throw new EnvelopeError();
    const bytes = fromBase64(sealed);
    if (bytes.length < 1 + IV_BYTES + TAG_BYTES || bytes[0] !== VERSION) throw new EnvelopeError();
    const iv = bytes.subarray(1, 1 + IV_BYTES);
    const zipped = installed().decrypt(envelopeKey(token), iv, bytes.subarray(1 + IV_BYTES));
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
