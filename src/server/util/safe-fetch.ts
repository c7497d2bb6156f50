/**
 * Outgoing HTTP that can never become a way into the server's own network (SSRF). One home, used by
 * the remote-image proxy (res-proxy.ts) and by programs' HTTP steps:
 * - http(s) only, no credentials in the URL;
 * - every address a host name resolves to is checked (loopback, private, link-local, carrier-grade
 *   NAT, cloud metadata, multicast, reserved: refused) unless `allow` names the `host:port`, and the
 *   connection goes to the checked address itself, so a second DNS answer cannot swap it (rebinding);
 * - redirects are followed by hand, at most `maxRedirects`, each target checked again;
 * - the answer is read up to `maxBytes` (counted while reading, not trusted from headers), all within
 *   `timeoutMs` overall.
 * Failures are SafeFetchError with a kind; callers map kinds to their own coded errors.
 */
import dns from 'node:dns';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import net from 'node:net';

export type SafeFetchKind = 'url' | 'refused' | 'failed' | 'too-large';

export class SafeFetchError extends Error {
  constructor(
    readonly kind: SafeFetchKind,
    message: string,
  ) {
    super(message);
  }
}

export interface SafeFetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer | undefined;
  maxBytes: number;
  timeoutMs: number;
  /** `host:port` pairs allowed although their address is private (tests, an intranet host). */
  allow: ReadonlySet<string>;
  maxRedirects?: number;
  /** Sees the final answer's status and headers before its body is read; may throw to refuse it. */
  inspect?: (status: number, headers: IncomingHttpHeaders) => void;
}

export interface SafeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Where the answer came from, after redirects. */
  url: string;
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

/** The URL as it will be fetched, or SafeFetchError('url'). */
export function checkHttpUrl(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new SafeFetchError('url', 'not a URL');
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname)
    throw new SafeFetchError('url', 'only http(s) URLs');
  if (u.username || u.password) throw new SafeFetchError('url', 'links carrying credentials are refused');
  return u;
}

function portOf(u: URL): string {
  return u.port || (u.protocol === 'https:' ? '443' : '80');
}

/** Resolve and check the host's addresses (unless `allow` names it); answer the one to connect to. */
export async function addressOf(
  url: URL,
  allow: ReadonlySet<string>,
): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allowed = allow.has(`${host}:${portOf(url)}`);
  if (net.isIP(host)) {
    if (!allowed && isRefusedAddress(host)) throw new SafeFetchError('refused', `address ${host} refused`);
    return { address: host, family: net.isIP(host) };
  }
  let all: dns.LookupAddress[];
  try {
    all = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    throw new SafeFetchError('failed', 'host not found');
  }
  if (all.length === 0) throw new SafeFetchError('failed', 'host not found');
  if (!allowed && all.some((a) => isRefusedAddress(a.address)))
    throw new SafeFetchError('refused', `${host} resolves to a refused address`);
  return all[0]!;
}

type Once = SafeResponse | { location: string; status: number };

function once(
  url: URL,
  opts: SafeFetchOptions,
  method: string,
  body: string | Buffer | undefined,
  deadline: number,
) {
  return new Promise<Once>((resolve, reject) => {
    void addressOf(url, opts.allow).then((target) => {
      const left = deadline - Date.now();
      if (left <= 0) {
        reject(new SafeFetchError('failed', 'timed out'));
        return;
      }
      const lib = url.protocol === 'https:' ? https : http;
      const req = lib.request(
        url,
        {
          method,
          headers: {
            'user-agent': 'lowcode-server',
            ...opts.headers,
            ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
          },
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
            resolve({ location: res.headers.location, status });
            return;
          }
          try {
            opts.inspect?.(status, res.headers);
          } catch (e) {
            res.destroy();
            reject(e);
            return;
          }
          const declared = Number(res.headers['content-length']);
          if (Number.isFinite(declared) && declared > opts.maxBytes) {
            res.destroy();
            reject(new SafeFetchError('too-large', `at most ${opts.maxBytes} bytes`));
            return;
          }
          const parts: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > opts.maxBytes) {
              res.destroy();
              reject(new SafeFetchError('too-large', `at most ${opts.maxBytes} bytes`));
              return;
            }
            parts.push(chunk);
          });
          res.on('end', () =>
            resolve({ status, headers: res.headers, body: Buffer.concat(parts), url: url.href }),
          );
          res.on('error', () => reject(new SafeFetchError('failed', 'connection failed')));
        },
      );
      const timer = setTimeout(() => req.destroy(new Error('timed out')), left);
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', (e) =>
        reject(
          e instanceof SafeFetchError
            ? e
            : new SafeFetchError('failed', e.message === 'timed out' ? 'timed out' : 'connection failed'),
        ),
      );
      req.on('close', () => clearTimeout(timer));
      req.end(body);
    }, reject);
  });
}

/** One request with its redirects, every hop checked; see the file comment. */
export async function safeFetch(raw: string, opts: SafeFetchOptions): Promise<SafeResponse> {
  let url = checkHttpUrl(raw);
  let method = (opts.method ?? 'GET').toUpperCase();
  let body = opts.body;
  const deadline = Date.now() + opts.timeoutMs;
  const max = opts.maxRedirects ?? 3;
  for (let hop = 0; ; hop++) {
    const r = await once(url, opts, method, body, deadline);
    if (!('location' in r)) return r;
    if (hop >= max) throw new SafeFetchError('failed', 'too many redirects');
    let next: URL;
    try {
      next = new URL(r.location, url);
    } catch {
      throw new SafeFetchError('failed', 'bad redirect');
    }
    url = checkHttpUrl(next.href);
    // As browsers do: 303 (and 301/302 after a POST) go on as GET without a body; 307/308 keep both.
    if (r.status === 303 || ((r.status === 301 || r.status === 302) && method === 'POST')) {
      if (method !== 'HEAD') method = 'GET';
      body = undefined;
    }
  }
}
