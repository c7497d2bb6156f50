import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Kinds of Y messages exchanged between server processes. */
export const FAN = { UPDATE: 0, AWARENESS: 1, QUERY: 2 } as const;
export type FanKind = (typeof FAN)[keyof typeof FAN];

export interface FanoutHandlers {
  /** A Y message for a document from another process. */
  onDoc(docId: string, kind: FanKind, payload: Uint8Array): void;
  /** Another process asks every process to close a user's connections. */
  onCloseUser(userId: string): void;
  /** Another process asks every process to close a user's connections into one project. */
  onCloseMember(userId: string, projectId: string): void;
  /** Sessions, users, memberships or roles changed on another process. */
  onSessionsChanged(): void;
  /** A document was removed on another process. */
  onDiscard(docId: string): void;
}

const ID_LEN = 8;

/**
 * Redis pub/sub between server processes serving the same documents. One channel per loaded
 * document (`<prefix>:y:<docId>`) carries [sender id (8 bytes)][kind (1 byte)][payload]; a control
 * channel carries JSON commands. A process ignores its own messages.
 */
export class RedisFanout {
  readonly id = randomBytes(ID_LEN);
  private readonly ctl: string;

  constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly prefix: string,
    private readonly handlers: FanoutHandlers,
  ) {
    this.ctl = `${prefix}:ctl`;
    sub.on('messageBuffer', (channel: Buffer, message: Buffer) => this.receive(channel.toString(), message));
  }

  async start(): Promise<void> {
    await this.sub.subscribe(this.ctl);
  }

  private channel(docId: string): string {
    return `${this.prefix}:y:${docId}`;
  }

  private receive(channel: string, message: Buffer): void {
    if (channel === this.ctl) {
      try {
        const cmd = JSON.parse(message.toString()) as {
          t: string;
          from: string;
          userId?: string;
          docId?: string;
          projectId?: string;
        };
        if (cmd.from === this.id.toString('hex')) return;
        if (cmd.t === 'close-user' && typeof cmd.userId === 'string') this.handlers.onCloseUser(cmd.userId);
        else if (
          cmd.t === 'close-member' &&
          typeof cmd.userId === 'string' &&
          typeof cmd.projectId === 'string'
        )
          this.handlers.onCloseMember(cmd.userId, cmd.projectId);
        else if (cmd.t === 'sessions-changed') this.handlers.onSessionsChanged();
        else if (cmd.t === 'discard' && typeof cmd.docId === 'string') this.handlers.onDiscard(cmd.docId);
      } catch {
        // Not ours; ignore.
      }
      return;
    }
    const docPrefix = `${this.prefix}:y:`;
    if (!channel.startsWith(docPrefix) || message.length < ID_LEN + 1) return;
    if (message.subarray(0, ID_LEN).equals(this.id)) return;
    const kind = message[ID_LEN] as FanKind;
    const payload = new Uint8Array(
      message.buffer,
      message.byteOffset + ID_LEN + 1,
      message.length - ID_LEN - 1,
    );
    this.handlers.onDoc(channel.slice(docPrefix.length), kind, payload);
  }

  subscribe(docId: string): Promise<unknown> {
    return this.sub.subscribe(this.channel(docId));
  }

  unsubscribe(docId: string): Promise<unknown> {
    return this.sub.unsubscribe(this.channel(docId));
  }

  publish(docId: string, kind: FanKind, payload: Uint8Array): void {
    const msg = Buffer.allocUnsafe(ID_LEN + 1 + payload.length);
    this.id.copy(msg, 0);
    msg[ID_LEN] = kind;
    msg.set(payload, ID_LEN + 1);
    this.pub.publish(this.channel(docId), msg).catch(() => {});
  }

  async closeUser(userId: string): Promise<void> {
    await this.pub.publish(
      this.ctl,
      JSON.stringify({ t: 'close-user', from: this.id.toString('hex'), userId }),
    );
  }

  async closeMember(userId: string, projectId: string): Promise<void> {
    await this.pub.publish(
      this.ctl,
      JSON.stringify({ t: 'close-member', from: this.id.toString('hex'), userId, projectId }),
    );
  }

  /** Tell every other process that sessions, users, memberships or roles changed. */
  sessionsChanged(): void {
    this.pub
      .publish(this.ctl, JSON.stringify({ t: 'sessions-changed', from: this.id.toString('hex') }))
      .catch(() => {});
  }

  /** Tell every other process that a document was removed. */
  async discard(docId: string): Promise<void> {
    await this.pub.publish(this.ctl, JSON.stringify({ t: 'discard', from: this.id.toString('hex'), docId }));
  }
}
