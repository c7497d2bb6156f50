/**
 * Provider access tokens and tickets (WeChat access_token / jsapi_ticket, WeCom tokens and tickets),
 * kept until shortly before they expire. Providers limit how often these may be fetched and a new one
 * revokes the old after a grace period, so processes must share one: with REDIS_URL set the value
 * lives in Redis, and a short Redis lock makes one process fetch while the others wait for its answer.
 * Without Redis each process caches in memory (one fetch per process and expiry).
 */
import type { Redis } from 'ioredis';

/** What a fetch answers: the value and its lifetime in seconds (the provider's `expires_in`). */
export interface Fetched {
  value: string;
  expiresIn: number;
}

/** Renew this long before the provider's expiry, so a value handed out is still good when used. */
const MARGIN_MS = 5 * 60 * 1000;
const LOCK_MS = 15_000;
const WAIT_STEP_MS = 50;

export class TokenCache {
  private readonly local = new Map<string, { value: string; until: number }>();
  private readonly inflight = new Map<string, Promise<string>>();
  private redis: Redis | undefined;

  constructor(private readonly prefix = 'lc:third:') {}

  async connect(redisUrl: string): Promise<void> {
    const { Redis } = await import('ioredis');
    this.redis = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
  }

  close(): void {
    this.redis?.disconnect();
  }

  /**
   * The provider refused `value` as invalid or expired: drop it, unless it was already replaced
   * (another call or process refused it first and fetched a new one), so that one refusal seen by
   * many callers leads to one new fetch, not one each. With Redis the compare-and-delete is atomic.
   */
  async reject(key: string, value: string): Promise<void> {
    if (this.local.get(key)?.value === value) this.local.delete(key);
    await this.redis?.eval(
      "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end",
      1,
      this.prefix + key,
      value,
    );
  }

  /** The cached value of `key`, else one fetched (once per process at a time, once overall with Redis). */
  async get(key: string, fetch: () => Promise<Fetched>): Promise<string> {
    const hit = this.local.get(key);
    if (hit && hit.until > Date.now()) return hit.value;
    let p = this.inflight.get(key);
    if (!p) {
      p = this.load(key, fetch).finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return p;
  }

  private remember(key: string, value: string, until: number): string {
    this.local.set(key, { value, until });
    return value;
  }

  private async load(key: string, fetch: () => Promise<Fetched>): Promise<string> {
    const lifetime = (f: Fetched) => Math.max(f.expiresIn * 1000 - MARGIN_MS, 1000);
    const r = this.redis;
    if (!r) {
      const f = await fetch();
      return this.remember(key, f.value, Date.now() + lifetime(f));
    }
    const k = this.prefix + key;
    const lock = `${k}:lock`;
    const deadline = Date.now() + LOCK_MS;
    for (;;) {
      const [value, ttl] = await Promise.all([r.get(k), r.pttl(k)]);
      if (value && ttl > 0) return this.remember(key, value, Date.now() + ttl);
      if ((await r.set(lock, '1', 'PX', LOCK_MS, 'NX')) === 'OK') {
        try {
          // Another process may have stored one between our read and our lock.
          const [again, left] = await Promise.all([r.get(k), r.pttl(k)]);
          if (again && left > 0) return this.remember(key, again, Date.now() + left);
          const f = await fetch();
          const ms = lifetime(f);
          await r.set(k, f.value, 'PX', ms);
          return this.remember(key, f.value, Date.now() + ms);
        } finally {
          await r.del(lock);
        }
      }
      // Another process is fetching: wait for its answer (or its lock to lapse).
      if (Date.now() > deadline) {
        const f = await fetch();
        return this.remember(key, f.value, Date.now() + lifetime(f));
      }
      await new Promise((res) => setTimeout(res, WAIT_STEP_MS));
    }
  }
}
