/**
 * The remote-image proxy behind `GET /api/common/utils/res?url=` (runtime spec: resource URLs are
 * rewritten to it). It must never become a way into the server's own network: the fetch itself is
 * `safeFetch` (safe-fetch.ts: addresses checked after DNS and on every redirect, size cap, time
 * limit), and only image types are read. Answers are kept in a small in-memory cache bounded by bytes.
 */
import { AppError, E, fail } from '../errors.ts';
import { checkHttpUrl, isRefusedAddress, SafeFetchError, safeFetch } from './safe-fetch.ts';

export { isRefusedAddress };

export const RES_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);

export interface ResOptions {
  maxBytes: number;
  timeoutMs: number;
  /** `host:port` pairs allowed although their address is private (tests, an intranet image host). */
  allow: ReadonlySet<string>;
  /** Bytes kept in the answer cache, and how long an entry is served. */
  cacheBytes: number;
  cacheMs: number;
}

export interface ResAnswer {
  type: string;
  body: Buffer;
}

/** The URL as it will be fetched, or the coded refusal. */
export function checkResUrl(raw: string): URL {
  try {
    return checkHttpUrl(raw);
  } catch (e) {
    const why = e instanceof SafeFetchError && e.message.includes('credentials') ? e.message : undefined;
    fail(E.RES_URL_INVALID, why);
  }
}

function typeOf(headers: Record<string, unknown>): string {
  return String(headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
}

export class ResProxy {
  private readonly cache = new Map<string, { at: number; answer: ResAnswer }>();
  private cachedBytes = 0;

  constructor(private readonly opts: ResOptions) {}

  async get(raw: string): Promise<ResAnswer> {
    const url = checkResUrl(raw);
    const key = url.href;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < this.opts.cacheMs) {
      // Most recently used last.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit.answer;
    }
    let answer: ResAnswer;
    try {
      const r = await safeFetch(url.href, {
        headers: { accept: 'image/*', 'user-agent': 'lowcode-res-proxy' },
        maxBytes: this.opts.maxBytes,
        timeoutMs: this.opts.timeoutMs,
        allow: this.opts.allow,
        inspect: (status, headers) => {
          if (status !== 200) throw new AppError(E.RES_FETCH_FAILED, `remote answered ${status}`);
          const type = typeOf(headers);
          if (!RES_TYPES.has(type)) throw new AppError(E.RES_TYPE_REFUSED, type || 'no content type');
        },
      });
      answer = { type: typeOf(r.headers), body: r.body };
    } catch (e) {
      if (!(e instanceof SafeFetchError)) throw e;
      if (e.kind === 'url') fail(E.RES_URL_INVALID, e.message);
      if (e.kind === 'refused') fail(E.RES_ADDRESS_REFUSED);
      if (e.kind === 'too-large') fail(E.RES_TOO_LARGE, e.message);
      fail(E.RES_FETCH_FAILED, e.message);
    }
    this.remember(key, answer);
    return answer;
  }

  private remember(key: string, answer: ResAnswer): void {
    if (answer.body.length > this.opts.cacheBytes / 4) return;
    this.cache.set(key, { at: Date.now(), answer });
    this.cachedBytes += answer.body.length;
    for (const [k, v] of this.cache) {
      if (this.cachedBytes <= this.opts.cacheBytes) break;
      this.cache.delete(k);
      this.cachedBytes -= v.answer.body.length;
    }
  }
}
