/**
 * Object ids: 24 hex characters (4 bytes of seconds, 5 random bytes, a 3-byte counter), like a
 * MongoDB ObjectId, plus a 16-character compressed form (the same 12 bytes in base64url).
 */

const HEX_ID = /^[0-9a-f]{24}$/;
const COMPRESSED_ID = /^[A-Za-z0-9_-]{16}$/;
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

let counter = Math.floor(Math.random() * 0xffffff);
let processRandom: string | undefined;

function randomHex(bytes: number): string {
  const buf = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A new 24-hex id, increasing with time within one process. */
export function newId(now: number = Date.now()): string {
  processRandom ??= randomHex(5);
  counter = (counter + 1) % 0x1000000;
  const seconds = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0')
    .slice(-8);
  return seconds + processRandom + counter.toString(16).padStart(6, '0');
}

/** True for a 24-hex id (lower case, as we issue them). */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && HEX_ID.test(value);
}

/** The time an id was made, in ms. */
export function idTime(id: string): number {
  return Number.parseInt(id.slice(0, 8), 16) * 1000;
}

/** 24-hex id → 16-character base64url form. */
export function compressId(id: string): string {
  if (!isId(id)) throw new TypeError('not an id');
  let out = '';
  // 12 bytes = 4 groups of 3 bytes = 4 × 4 characters.
  for (let i = 0; i < 24; i += 6) {
    const n = Number.parseInt(id.slice(i, i + 6), 16);
    out += B64URL[(n >> 18) & 63]! + B64URL[(n >> 12) & 63]! + B64URL[(n >> 6) & 63]! + B64URL[n & 63]!;
  }
  return out;
}

/** 16-character compressed form → 24-hex id. */
export function expandId(short: string): string {
  if (!COMPRESSED_ID.test(short)) throw new TypeError('not a compressed id');
  let out = '';
  for (let i = 0; i < 16; i += 4) {
    let n = 0;
    for (let j = 0; j < 4; j++) n = (n << 6) | B64URL.indexOf(short[i + j]!);
    out += n.toString(16).padStart(6, '0');
  }
  return out;
}

/** Accepts either form and answers the 24-hex id, or undefined. */
export function normalizeId(value: unknown): string | undefined {
  if (isId(value)) return value;
  if (typeof value === 'string' && COMPRESSED_ID.test(value)) return expandId(value);
  return undefined;
}
