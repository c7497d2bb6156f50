/**
 * The remote-image proxy behind `GET /api/common/utils/res?url=` (runtime spec: resource URLs are
 * rewritten to it). It must never become a way into the server's own network:
 * - http(s) only, no credentials in the URL;
 * - every address a host name resolves to is checked (loopback, private, link-local, carrier-grade
 *   NAT, cloud metadata, multicast, reserved: refused), and the connection goes to the checked
 *   address itself, so a second DNS answer cannot swap it (rebinding);
 * - redirects are followed by hand, at most MAX_REDIRECTS, each target checked again;
 * - only image types, at most `maxBytes` (counted while reading, not trusted from headers), within
 *   `timeoutMs` overall;
 * - answers are kept in a small in-memory cache bounded by bytes.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { AppError, E, fail } from '../errors.ts';

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
const MAX_REDIRECTS = 3;

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

const refused = new net.BlockList();
for (const [addr, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  refused.addSubnet(addr, bits, 'ipv4');
for (const [addr, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  refused.addSubnet(addr, bits, 'ipv6');

/** True when an address must not be reached from the server (IPv4-mapped IPv6 checked as IPv4). */
export function isRefusedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return refused.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return refused.check(mapped[1]!, 'ipv4');
    return refused.check(address, 'ipv6');
  }
  return true;
}

/** The URL as it will be fetched, or the coded refusal. */
export function checkResUrl(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    fail(E.RES_URL_INVALID);
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) fail(E.RES_URL_INVALID);
  if (u.username || u.password) fail(E.RES_URL_INVALID, 'links carrying credentials are refused');
  return u;
}

function portOf(u: URL): string {
  return u.port || (u.protocol === 'https:' ? '443' : '80');
}

export class ResProxy {
  private readonly cache = new Map<string, { at: number; answer: ResAnswer }>();
  private cachedBytes = 0;

  constructor(private readonly opts: ResOptions) {}

  async get(raw: string): Promise<ResAnswer> {
    let url = checkResUrl(raw);
    const key = url.href;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < this.opts.cacheMs) {
      // Most recently used last.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit.answer;
    }
    const deadline = Date.now() + this.opts.timeoutMs;
    for (let hop = 0; ; hop++) {
      const r = await this.fetchOnce(url, deadline);
      if ('location' in r) {
        if (hop >= MAX_REDIRECTS) fail(E.RES_FETCH_FAILED, 'too many redirects');
        let next: URL;
        try {
          next = new URL(r.location, url);
        } catch {
          fail(E.RES_FETCH_FAILED, 'bad redirect');
        }
        url = checkResUrl(next.href);
        continue;
      }
      this.remember(key, r);
      return r;
    }
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

  /** Resolve and check the host's addresses (unless allowed); answer the one to connect to. */
  private async address(url: URL): Promise<{ address: string; family: number }> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const allowed = this.opts.allow.has(`${host}:${portOf(url)}`);
    if (net.isIP(host)) {
      if (!allowed && isRefusedAddress(host)) fail(E.RES_ADDRESS_REFUSED);
      return { address: host, family: net.isIP(host) };
    }
    let all: dns.LookupAddress[];
    try {
      all = await dns.promises.lookup(host, { all: true, verbatim: true });
    } catch {
      fail(E.RES_FETCH_FAILED, 'host not found');
    }
    if (all.length === 0) fail(E.RES_FETCH_FAILED, 'host not found');
    if (!allowed && all.some((a) => isRefusedAddress(a.address))) fail(E.RES_ADDRESS_REFUSED);
    return all[0]!;
  }

  private async fetchOnce(url: URL, deadline: number): Promise<ResAnswer | { location: string }> {
    const target = await this.address(url);
    const left = deadline - Date.now();
    if (left <= 0) fail(E.RES_FETCH_FAILED, 'timed out');
    const lib = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = lib.request(
        url,
        {
          method: 'GET',
          headers: { accept: 'image/*', 'user-agent': 'lowcode-res-proxy' },
          // Connect to the address checked above, whatever DNS would answer now.
          lookup: (_h, options, cb) => {
            if ((options as { all?: boolean }).all)
              (cb as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, [target]);
            else cb(null, target.address, target.family);
          },
          timeout: left,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          if (status >= 300 && status < 400 && res.headers.location) {
            res.resume();
            resolve({ location: res.headers.location });
            return;
          }
          if (status !== 200) {
            res.resume();
            reject(new AppError(E.RES_FETCH_FAILED, `remote answered ${status}`));
            return;
          }
          const type = String(res.headers['content-type'] ?? '')
            .split(';')[0]!
            .trim()
            .toLowerCase();
          if (!RES_TYPES.has(type)) {
            res.destroy();
            reject(new AppError(E.RES_TYPE_REFUSED, type || 'no content type'));
            return;
          }
          const declared = Number(res.headers['content-length']);
          if (Number.isFinite(declared) && declared > this.opts.maxBytes) {
            res.destroy();
            reject(new AppError(E.RES_TOO_LARGE, `at most ${this.opts.maxBytes} bytes`));
            return;
          }
          const parts: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > this.opts.maxBytes) {
              res.destroy();
              reject(new AppError(E.RES_TOO_LARGE, `at most ${this.opts.maxBytes} bytes`));
              return;
            }
            parts.push(chunk);
          });
          res.on('end', () => resolve({ type, body: Buffer.concat(parts) }));
          res.on('error', () => reject(new AppError(E.RES_FETCH_FAILED)));
        },
      );
      const timer = setTimeout(() => req.destroy(new Error('timed out')), left);
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', (e) =>
        reject(
          e instanceof AppError
            ? e
            : new AppError(E.RES_FETCH_FAILED, e.message === 'timed out' ? 'timed out' : 'connection failed'),
        ),
      );
      req.on('close', () => clearTimeout(timer));
      req.end();
    });
  }
}
