/**
 * The optional S3-compatible object store for uploads (spec: the upload call "returns either
 * direct-to-object-store fields (oss, signature, policy, accessKeyId, ossUrl) or an uploadAction").
 * Configured by `S3_ENDPOINT`, `S3_BUCKET`, `S3_ACCESS_KEY_ID`, `S3_SECRET_ACCESS_KEY` (all four, or the
 * local folder stays the store), `S3_REGION` (default us-east-1) and `S3_PUBLIC_URL` (where stored objects
 * are read by browsers; default `{endpoint}/{bucket}`, path style).
 *
 * Browsers upload straight to the bucket with a signed POST policy (AWS Signature Version 4): the key must
 * start with a folder the server chose (the spec's path pattern plus 128 random bits, so URLs cannot be
 * guessed), the size is 1 byte to the upload limit, images must declare an image type, and the policy lasts
 * 10 minutes. Server-side writes (the rich-text helper's uploads), reads (zip downloads) and listings use
 * signed requests. No SDK: the signing is the documented HMAC chain, tested against published vectors.
 */
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { E, fail } from '../errors.ts';
import { UPLOAD_MAX_BYTES, type UploadType, uploadPath } from './upload-paths.ts';

export interface S3Config {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  publicUrl: string;
}

/** The store's settings from the environment, or undefined when any required one is missing. */
export function s3Config(env: NodeJS.ProcessEnv): S3Config | undefined {
  const { S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = env;
  if (!S3_ENDPOINT || !S3_BUCKET || !S3_ACCESS_KEY_ID || !S3_SECRET_ACCESS_KEY) return undefined;
  const endpoint = S3_ENDPOINT.replace(/\/+$/, '');
  return {
    endpoint,
    bucket: S3_BUCKET,
    region: env.S3_REGION || 'us-east-1',
    accessKeyId: S3_ACCESS_KEY_ID,
    secretAccessKey: S3_SECRET_ACCESS_KEY,
    publicUrl: (env.S3_PUBLIC_URL || `${endpoint}/${S3_BUCKET}`).replace(/\/+$/, ''),
  };
}

const hmac = (key: Buffer | string, data: string) => crypto.createHmac('sha256', key).update(data).digest();
const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex');

/** The Signature Version 4 signing key: HMAC chain over date, region, service and `aws4_request`. */
export function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

/** Hex HMAC of a string to sign (for a POST policy: the base64 policy itself). */
export function signString(
  secret: string,
  date: string,
  region: string,
  service: string,
  toSign: string,
): string {
  return crypto
    .createHmac('sha256', signingKey(secret, date, region, service))
    .update(toSign)
    .digest('hex');
}

/** `20260127T093000Z` and `20260127` of a time. */
function amzDate(now: number): { stamp: string; date: string } {
  const stamp = new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  return { stamp, date: stamp.slice(0, 8) };
}

/** RFC 3986 encoding, as S3's canonical requests want it (`/` kept in paths). */
function enc(s: string, keepSlash = false): string {
  const out = encodeURIComponent(s).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return keepSlash ? out.replace(/%2F/g, '/') : out;
}

/** The spec's day folder (YYYYMMDD) in the project's zone, Beijing. */
function day(now: number): string {
  return new Date(now + 8 * 3600_000).toISOString().slice(0, 10).replace(/-/g, '');
}

export const POLICY_TTL_MS = 10 * 60_000;

export interface PostForm {
  /** Where the browser posts the form (multipart/form-data, the file part last, named `file`). */
  ossUrl: string;
  /** Fields to send before the file (then `key` = `dir` + the file's safe name, `Content-Type`, the file). */
  fields: Record<string, string>;
  /** The folder every key must start with. */
  dir: string;
  /** Where the stored object is read: `{host}/{key}`. */
  host: string;
  policy: string;
  signature: string;
  accessKeyId: string;
  expire: number;
}

export class S3Store {
  constructor(readonly cfg: S3Config) {}

  /** A signed POST policy for one upload of the given type into the project's folder. */
  postForm(project: string, type: UploadType, now = Date.now()): PostForm {
    const { stamp, date } = amzDate(now);
    const credential = `${this.cfg.accessKeyId}/${date}/${this.cfg.region}/s3/aws4_request`;
    const dir = `project/${project}/main/${type}/${day(now)}/${now}_${crypto.randomBytes(16).toString('hex')}_`;
    const expire = now + POLICY_TTL_MS;
    const conditions: unknown[] = [
      { bucket: this.cfg.bucket },
      ['starts-with', '$key', dir],
      ['content-length-range', 1, UPLOAD_MAX_BYTES],
      ['starts-with', '$Content-Type', type === 'image' ? 'image/' : ''],
      { 'x-amz-algorithm': 'AWS4-HMAC-SHA256' },
      { 'x-amz-credential': credential },
      { 'x-amz-date': stamp },
    ];
    const policy = Buffer.from(
      JSON.stringify({ expiration: new Date(expire).toISOString(), conditions }),
    ).toString('base64');
    const signature = signString(this.cfg.secretAccessKey, date, this.cfg.region, 's3', policy);
    return {
      ossUrl: `${this.cfg.endpoint}/${this.cfg.bucket}`,
      fields: {
        'x-amz-algorithm': 'AWS4-HMAC-SHA256',
        'x-amz-credential': credential,
        'x-amz-date': stamp,
        policy,
        'x-amz-signature': signature,
      },
      dir,
      host: this.cfg.publicUrl,
      policy,
      signature,
      accessKeyId: this.cfg.accessKeyId,
      expire,
    };
  }

  urlOf(key: string): string {
    return `${this.cfg.publicUrl}/${key
      .split('/')
      .map((p) => enc(p))
      .join('/')}`;
  }

  /**
   * The key behind a public URL of this store, or null for any other URL or a path that is not one of
   * the spec's upload paths; `project` limits it to that project's files.
   */
  keyOf(url: string, project?: string): string | null {
    return uploadPath(url, `${this.cfg.publicUrl}/`, project)?.join('/') ?? null;
  }

  /** A signed request to the bucket (path style); answers the response, any status. */
  async request(
    method: 'GET' | 'PUT' | 'HEAD',
    key: string,
    opts: { query?: Record<string, string>; body?: Buffer; contentType?: string; now?: number } = {},
  ): Promise<Response> {
    const { stamp, date } = amzDate(opts.now ?? Date.now());
    const url = new URL(this.cfg.endpoint);
    const basePath = url.pathname.replace(/\/+$/, '');
    const path = `${basePath}/${enc(this.cfg.bucket)}${key ? `/${enc(key, true)}` : ''}`;
    const query = Object.entries(opts.query ?? {})
      .map(([k, v]) => [enc(k), enc(v)] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const payload = sha256(opts.body ?? '');
    const headers: Record<string, string> = {
      host: url.host,
      'x-amz-content-sha256': payload,
      'x-amz-date': stamp,
      ...(opts.contentType ? { 'content-type': opts.contentType } : {}),
    };
    const names = Object.keys(headers).sort();
    const canonical = [
      method,
      path,
      query,
      names.map((n) => `${n}:${headers[n]}\n`).join(''),
      names.join(';'),
      payload,
    ].join('\n');
    const scope = `${date}/${this.cfg.region}/s3/aws4_request`;
    const toSign = ['AWS4-HMAC-SHA256', stamp, scope, sha256(canonical)].join('\n');
    const signature = signString(this.cfg.secretAccessKey, date, this.cfg.region, 's3', toSign);
    const { host: _host, ...sent } = headers;
    try {
      return await fetch(`${url.origin}${path}${query ? `?${query}` : ''}`, {
        method,
        headers: {
          ...sent,
          authorization: `AWS4-HMAC-SHA256 Credential=${this.cfg.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
        },
        ...(opts.body ? { body: new Uint8Array(opts.body) } : {}),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      fail(E.OBJECT_STORE_FAILED, (err as Error).message);
    }
  }

  /** Store bytes under a key; answers its public URL. */
  async put(key: string, data: Buffer, contentType: string): Promise<string> {
    const res = await this.request('PUT', key, { body: data, contentType });
    if (!res.ok) fail(E.OBJECT_STORE_FAILED, `PUT answered ${res.status}`);
    await res.body?.cancel();
    return this.urlOf(key);
  }

  /** The size of an object, or null when there is none. */
  async size(key: string): Promise<number | null> {
    const res = await this.request('HEAD', key);
    if (res.status === 404) return null;
    if (!res.ok) fail(E.OBJECT_STORE_FAILED, `HEAD answered ${res.status}`);
    return Number(res.headers.get('content-length') ?? 0);
  }

  /** The object's bytes as a stream. */
  async open(key: string): Promise<Readable> {
    const res = await this.request('GET', key);
    if (!res.ok || !res.body) fail(E.OBJECT_STORE_FAILED, `GET answered ${res.status}`);
    return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
  }

  /** Objects under a prefix (ListObjectsV2), at most `max`. */
  async list(prefix: string, max = 1000): Promise<{ key: string; size: number; mtime: number }[]> {
    const out: { key: string; size: number; mtime: number }[] = [];
    let token: string | undefined;
    do {
      const res = await this.request('GET', '', {
        query: {
          'list-type': '2',
          prefix,
          'max-keys': String(Math.min(1000, max - out.length)),
          ...(token ? { 'continuation-token': token } : {}),
        },
      });
      const xml = await res.text();
      if (!res.ok) fail(E.OBJECT_STORE_FAILED, `list answered ${res.status}`);
      for (const m of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        const body = m[1]!;
        const key = unxml(/<Key>([\s\S]*?)<\/Key>/.exec(body)?.[1] ?? '');
        const size = Number(/<Size>(\d+)<\/Size>/.exec(body)?.[1] ?? 0);
        const mtime = Date.parse(/<LastModified>([^<]+)<\/LastModified>/.exec(body)?.[1] ?? '') || 0;
        if (key) out.push({ key, size, mtime });
      }
      token = /<IsTruncated>true<\/IsTruncated>/.test(xml)
        ? unxml(/<NextContinuationToken>([^<]+)<\/NextContinuationToken>/.exec(xml)?.[1] ?? '') || undefined
        : undefined;
    } while (token && out.length < max);
    return out;
  }
}

function unxml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');
}
