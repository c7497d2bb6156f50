/**
 * Limits on password guessing beyond the per-(address, name) request rate:
 * - per address, across names: at most `perAddress` failed sign-ins per minute from one address
 *   (spraying a password over many accounts), then 1005 until the minute is over;
 * - per account, across addresses: after `perAccount` failed sign-ins on one name, each further try
 *   must wait `slowdownMs`, doubling with every further failure up to 15 minutes (1113, with
 *   Retry-After). A try during the wait is refused without checking the password, so a botnet gets
 *   one guess per wait however many addresses it has. A successful sign-in clears the name.
 * Names are keyed as typed (trimmed, lower-cased) whether or not an account exists, so the answers
 * say nothing about which accounts exist. Counters live in the process (like the request rate limits).
 */
import { E } from '../../shared/errors.ts';
import { AppError } from '../errors.ts';

export interface LoginLimits {
  /** Failed sign-ins per address per minute, across names (RATE_LOGIN_ADDRESS). */
  perAddress: number;
  /** Failed sign-ins on one name, from anywhere, before each further try waits (RATE_LOGIN_ACCOUNT). */
  perAccount: number;
  /** The first wait in ms; it doubles per further failure (LOGIN_SLOWDOWN_MS). */
  slowdownMs: number;
}

const WINDOW_MS = 60_000;
const MAX_WAIT_MS = 15 * 60_000;
/** A name's failures are forgotten this long after its last one. */
const FORGET_MS = 60 * 60_000;
const MAX_ENTRIES = 100_000;

interface AddressEntry {
  start: number;
  failures: number;
}
interface AccountEntry {
  failures: number;
  last: number;
}

/** Refused with a code and the seconds until a try may succeed. */
export class LoginRefused extends AppError {
  constructor(
    def: typeof E.RATE_LIMITED | typeof E.LOGIN_SLOWED,
    detail: string,
    readonly retryAfter: number,
  ) {
    super(def, detail);
  }
}

export class LoginGuard {
  private readonly addresses = new Map<string, AddressEntry>();
  private readonly accounts = new Map<string, AccountEntry>();

  constructor(
    private readonly limits: LoginLimits,
    private readonly now: () => number = Date.now,
  ) {}

  private static key(login: string): string {
    return login.trim().toLowerCase().slice(0, 128);
  }

  /** The wait after `failures` failures on a name (0 while under the limit). */
  private wait(failures: number): number {
    const over = failures - this.limits.perAccount;
    if (over < 0) return 0;
    return Math.min(MAX_WAIT_MS, this.limits.slowdownMs * 2 ** Math.min(over, 30));
  }

  /** Before a password (or a token) is checked: throws LoginRefused when this try may not be made. */
  check(address: string, login: string | null): void {
    const t = this.now();
    const a = this.addresses.get(address);
    if (a && t - a.start < WINDOW_MS && a.failures >= this.limits.perAddress) {
      throw new LoginRefused(
        E.RATE_LIMITED,
        'too many failed sign-ins from this address',
        Math.ceil((a.start + WINDOW_MS - t) / 1000),
      );
    }
    if (login === null) return;
    const n = this.accounts.get(LoginGuard.key(login));
    if (!n) return;
    const until = n.last + this.wait(n.failures);
    if (t < until) {
      throw new LoginRefused(
        E.LOGIN_SLOWED,
        'too many failed sign-ins for this account',
        Math.max(1, Math.ceil((until - t) / 1000)),
      );
    }
  }

  /** A password (or token) was wrong. */
  failed(address: string, login: string | null): void {
    const t = this.now();
    this.prune(t);
    const a = this.addresses.get(address);
    if (!a || t - a.start >= WINDOW_MS) this.addresses.set(address, { start: t, failures: 1 });
    else a.failures++;
    if (login === null) return;
    const key = LoginGuard.key(login);
    const n = this.accounts.get(key);
    if (!n || t - n.last >= FORGET_MS) this.accounts.set(key, { failures: 1, last: t });
    else {
      n.failures++;
      n.last = t;
    }
  }

  /** A sign-in succeeded: the name starts afresh. */
  succeeded(login: string): void {
    this.accounts.delete(LoginGuard.key(login));
  }

  /** Keep memory bounded: drop stale entries, and the oldest ones if a flood of names fills the maps. */
  private prune(t: number): void {
    if (this.addresses.size + this.accounts.size < MAX_ENTRIES) return;
    for (const [k, a] of this.addresses) if (t - a.start >= WINDOW_MS) this.addresses.delete(k);
    for (const [k, n] of this.accounts)
      if (t - n.last >= this.wait(n.failures) && t - n.last >= WINDOW_MS) this.accounts.delete(k);
    for (const map of [this.addresses, this.accounts] as Map<string, unknown>[]) {
      for (const k of map.keys()) {
        if (map.size < MAX_ENTRIES / 2) break;
        map.delete(k);
      }
    }
  }
}
