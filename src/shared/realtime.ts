/**
 * The real-time channel's wire helpers, shared by server and browser (spec "Real-time channel":
 * namespace /app, path /io, gzip payloads) and the co-editing endpoint's close codes.
 */
import { gunzipBounded, gzipBytes, strFromU8, strToU8 } from './envelope-core.ts';

export const SOCKET_PATH = '/io';
export const SOCKET_NAMESPACE = '/app';
/** Spec §9: socket heartbeat throttle. */
export const SOCKET_HEARTBEAT_MS = 30_000;
export const SOCKET_EVENTS = ['join', 'enter', 'leave', 'ping', 'action', 'notify'] as const;
export type SocketEvent = (typeof SOCKET_EVENTS)[number];
export type SocketPlatform = 'dev' | 'app';

/**
 * An `action` of this type says a table's records changed: `data` is {@link RecordsChange}, never row
 * data (each viewer reloads through the data API with their own grants). Clients send it to a page
 * room after a save on a live page; the server sends it to the project room after every committed write
 * (realtime/record-notices.ts).
 */
export const RECORDS_ACTION = 'records';

/** Which table changed: its id and code, so widgets naming it either way are found. */
export interface RecordsChange {
  entity: string;
  code: string;
}

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
  /** A co-editing message larger than YJS_MAX_MESSAGE (nothing of it was applied or stored). */
  TOO_LARGE: 4413,
} as const;

/**
 * Largest co-editing message the server reads: twice the largest page document (2 MB of JSON), so a
 * whole page still syncs in one update. Larger messages close the socket with CLOSE.TOO_LARGE.
 */
export const YJS_MAX_MESSAGE = 4 * 1024 * 1024;
/** The WebSocket frame limit of the co-editing endpoint: frames past it are closed by ws with 1009. */
export const YJS_MAX_FRAME = 8 * 1024 * 1024;

/**
 * Reason of the y-websocket "permission denied" auth message the co-editing endpoint sends to a
 * connection that may only read (on connect, and when its rights drop while it is open).
 */
export const READ_ONLY_REASON = 'read-only';

/**
 * Largest JSON text a socket event payload may inflate to (the server refuses more with 1002 before
 * inflating past it). Events carry small messages: an action names a table, a notice a few fields.
 */
export const SOCKET_MAX_PLAIN = 64 * 1024;
/** Largest socket.io message the server reads (its `maxHttpBufferSize`): room for one full payload. */
export const SOCKET_MAX_MESSAGE = 96 * 1024;
/** Largest JSON text an acknowledgement or relayed event may inflate to on the client (who lists are longer). */
export const SOCKET_MAX_ANSWER = 4 * 1024 * 1024;

/** Encode an event payload: JSON, then gzip (with the installed envelope primitives). */
export function packPayload(value: unknown): Uint8Array {
  return gzipBytes(strToU8(JSON.stringify(value ?? null)));
}

/**
 * Decode a gzip JSON payload of at most `max` plain bytes (bounded inflate: the gzip trailer is checked
 * against `max` first, and inflating stops past it). Throws on anything else, including a payload
 * that is not bytes at all.
 */
export function unpackPayload<T = unknown>(bytes: Uint8Array | ArrayBuffer, max = SOCKET_MAX_PLAIN): T {
  // Only bytes: `new Uint8Array(n)` of a number a client sent would allocate n bytes.
  if (!(bytes instanceof Uint8Array) && !(bytes instanceof ArrayBuffer)) throw new TypeError('not bytes');
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return JSON.parse(strFromU8(gunzipBounded(u8, max))) as T;
}
