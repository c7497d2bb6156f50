/**
 * The browser side of the socket channel (spec "Real-time channel"): socket.io at /io, namespace /app,
 * auth { token, project, platform }, gzip-compressed JSON payloads both ways, acknowledgements as
 * `{ error, data | msg }`. Calls made before the connection is up are kept in order and sent once it
 * is (socket.io's send buffer); the heartbeat (`ping`) goes out at most once per 30 s while connected.
 */
import { io, type Socket } from 'socket.io-client';
// Installs the pure-JS envelope primitives the payload codec gzips and inflates with.
import '../../shared/envelope.ts';
import {
  packPayload,
  SOCKET_HEARTBEAT_MS,
  SOCKET_MAX_ANSWER,
  SOCKET_NAMESPACE,
  SOCKET_PATH,
  type SocketEvent,
  type SocketPlatform,
  unpackPayload,
} from '../../shared/realtime.ts';

export interface ChannelOptions {
  project: string;
  platform: SocketPlatform;
  token: string;
  /** http(s)://host; defaults to this page's origin. */
  origin?: string;
  /** How long a call waits for its acknowledgement (default 10 s). */
  timeoutMs?: number;
}

export class ChannelError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ChannelError';
  }
}

type Answer<T> = { error: number; data?: T; msg?: string };

export class SocketChannel {
  readonly socket: Socket;
  private lastPing = 0;
  private readonly heartbeat: ReturnType<typeof setInterval>;
  private readonly timeoutMs: number;

  constructor(opts: ChannelOptions) {
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.socket = io(`${opts.origin ?? globalThis.location.origin}${SOCKET_NAMESPACE}`, {
      path: SOCKET_PATH,
      auth: { token: opts.token, project: opts.project, platform: opts.platform },
      transports: ['websocket'],
    });
    this.socket.on('connect', () => void this.ping().catch(() => {}));
    this.heartbeat = setInterval(() => void this.ping().catch(() => {}), SOCKET_HEARTBEAT_MS);
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  /** Send an event and wait for its answer; a coded refusal rejects with a ChannelError. */
  async call<T = unknown>(event: SocketEvent, body: unknown = {}): Promise<T> {
    const raw = await this.socket.timeout(this.timeoutMs).emitWithAck(event, packPayload(body));
    const answer = unpackPayload<Answer<T>>(raw as Uint8Array, SOCKET_MAX_ANSWER);
    if (answer.error !== 0) throw new ChannelError(answer.error, answer.msg ?? 'error');
    return answer.data as T;
  }

  /** The heartbeat: skipped when one went out less than 30 s ago. */
  async ping(now = Date.now()): Promise<boolean> {
    if (!this.socket.connected || now - this.lastPing < SOCKET_HEARTBEAT_MS) return false;
    this.lastPing = now;
    await this.call('ping');
    return true;
  }

  /** Listen to an event others cause (join, enter, leave, action, notify); answers an unsubscribe. */
  on<T = unknown>(event: SocketEvent, handler: (payload: T) => void): () => void {
    const listener = (p: Uint8Array) => handler(unpackPayload<T>(p, SOCKET_MAX_ANSWER));
    this.socket.on(event, listener);
    return () => {
      this.socket.off(event, listener);
    };
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.socket.close();
  }
}
