import type { FastifyBaseLogger } from 'fastify';

/** Where verification codes go. Replace the default with a real gateway in production. */
export interface SmsProvider {
  send(message: { phone: string; code: string; type: string }): Promise<void>;
}

export interface OutboxEntry {
  phone: string;
  code: string;
  type: string;
  at: number;
}

/** Default provider: writes the code to the server log; in test mode also to an outbox tests read. */
export class LogSmsProvider implements SmsProvider {
  readonly outbox: OutboxEntry[] = [];
  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly keepOutbox: boolean,
  ) {}

  async send(message: { phone: string; code: string; type: string }): Promise<void> {
    this.log.info(
      { sms: { phone: message.phone, type: message.type, code: message.code } },
      'verification code',
    );
    if (this.keepOutbox) {
      this.outbox.push({ ...message, at: Date.now() });
      if (this.outbox.length > 1000) this.outbox.splice(0, this.outbox.length - 1000);
    }
  }
}
