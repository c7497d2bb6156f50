/**
 * The real-time channel's wire helpers, shared by server and browser (spec "Real-time channel":
 * namespace /app, path /io, gzip payloads) and the co-editing endpoint's close codes.
 */
import { gunzipSync, gzipSync, strFromU8, strToU8 } from 'fflate';

export const SOCKET_PATH = '/io';
export const SOCKET_NAMESPACE = '/app';
/** Spec §9: socket heartbeat throttle. */
export const SOCKET_HEARTBEAT_MS = 30_000;
export const SOCKET_EVENTS = ['join', 'enter', 'leave', 'ping', 'action', 'notify'] as const;
export type SocketEvent = (typeof SOCKET_EVENTS)[number];
export type SocketPlatform = 'dev' | 'app';

/** Prefix of the y-websocket endpoint: the client uses `${origin}/yjs` as serverUrl and `${project}/${page}` as room. */
export const YJS_PATH = '/yjs';

/** Close codes of the co-editing endpoint (and connect-error codes of the socket channel). */
export const CLOSE = {
  TOKEN: 4401,
  FORBIDDEN: 4403,
  NOT_FOUND: 4404,
  /** The document could not be loaded; retry later (nothing was overwritten). */
  LOAD_FAILED: 4500,
  /** The user's sessions were revoked (kick, ban). */
  REVOKED: 4001,
  /** The user may now write: reconnect to get a writable connection (not permanent). */
  RIGHTS: 4002,
} as const;

/**
 * Reason of the y-websocket "permission denied" auth message the co-editing endpoint sends to a
 * connection that may only read (on connect, and when its rights drop while it is open).
 */
export const READ_ONLY_REASON = 'read-only';

/** Encode an event payload: JSON, then gzip. */
export function packPayload(value: unknown): Uint8Array {
  return gzipSync(strToU8(JSON.stringify(value ?? null)), { level: 6 });
}

/** Decode a gzip JSON payload; throws on anything else. */
export function unpackPayload<T = unknown>(bytes: Uint8Array | ArrayBuffer): T {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return JSON.parse(strFromU8(gunzipSync(u8))) as T;
}
