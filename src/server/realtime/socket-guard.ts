/**
 * Per-socket limits of the socket channel: how many events one connection may send per window, and
 * how many refusals (events over the rate, oversized or malformed payloads) it may earn before it is
 * disconnected. Counted before a payload is inflated or parsed, so a flood costs next to nothing.
 */

export interface SocketRate {
  /** Events one socket may send per window (RATE_SOCKET). */
  events: number;
  /** Window length in ms. */
  windowMs: number;
  /** Refusals one socket may earn per window before it is disconnected. */
  strikes: number;
}

export const DEFAULT_SOCKET_RATE: SocketRate = { events: 100, windowMs: 10_000, strikes: 20 };

export type Verdict = 'ok' | 'limited' | 'disconnect';

/** The counters of one socket (fixed windows: cheap, and a burst at a boundary is at most twice the rate). */
export class SocketGuard {
  private windowStart = 0;
  private events = 0;
  private strikes = 0;

  constructor(
    private readonly rate: SocketRate,
    private readonly now: () => number = Date.now,
  ) {}

  private roll(): void {
    const t = this.now();
    if (t - this.windowStart >= this.rate.windowMs) {
      this.windowStart = t;
      this.events = 0;
      this.strikes = 0;
    }
  }

  /** Count one incoming event: `limited` past the rate, `disconnect` once refusals pass the strikes. */
  event(): Verdict {
    this.roll();
    this.events++;
    if (this.events <= this.rate.events) return 'ok';
    return this.strike();
  }

  /** Count a refusal (a payload too large or malformed): `disconnect` once they pass the strikes. */
  strike(): Verdict {
    this.roll();
    this.strikes++;
    return this.strikes > this.rate.strikes ? 'disconnect' : 'limited';
  }
}
