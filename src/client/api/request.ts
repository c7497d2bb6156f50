/**
 * The request wrapper (runtime spec §7–§9): `token` header, sealed bodies and answers (unless raw
 * mode), a 120 s timeout, the shared queue, and the error catalogue's behaviour.
 */
import {
  DUPLICATE_SHARE_MS,
  QUEUE_WARN_ABOVE,
  REQUEST_LIMIT,
  REQUEST_TIMEOUT_MS,
} from '../../shared/constants.ts';
import { ENVELOPE_HEADERS } from '../../shared/envelope-core.ts';
import { CLIENT_CACHE_ENABLED, CLIENT_CACHE_MS, createTtlCache } from '../shell/cache.ts';
import { ApiError, NETWORK_ERROR } from './api-error.ts';
import { effects } from './effects.ts';
import { createQueue } from './queue.ts';
import { getToken, isRawMode } from './storage.ts';
import { openValue, sealValue } from './web-envelope.ts';

export interface RequestOptions {
  /** Do not show the error notice for ordinary error codes (the caller handles them). */
  quiet?: boolean;
  /** Let identical calls share one answer (default: GET only). */
  share?: boolean;
  timeoutMs?: number;
  /** Use this token instead of the stored one. */
  token?: string | null;
  /**
   * Keep the answer for this many ms (true: the client cache's 30 min). The client's default cache
   * is disabled (spec §9), so only callers that ask are cached; errors are never cached.
   */
  cache?: boolean | number;
}

interface Answer {
  error?: number;
  msg?: string;
  data?: unknown;
  encrypted?: string;
}

const queue = createQueue({
  limit: REQUEST_LIMIT,
  shareMs: DUPLICATE_SHARE_MS,
  warnAbove: QUEUE_WARN_ABOVE,
  onCrowded: () => effects.warnCrowded(),
});

/** Act on a coded error as the spec says, and answer the error to reject with. */
function codedError(code: number, msg: string, quiet: boolean): ApiError {
  switch (code) {
    case 102:
      effects.navigate('/dev/queue');
      return new ApiError(code, msg, true);
    case 104:
      effects.setLimited(true);
      return new ApiError(code, msg, true);
    case 105:
      effects.partnerModal();
      return new ApiError(code, msg, true);
    default:
      if (!quiet) effects.notifyError(code, msg);
      return new ApiError(code, msg, quiet);
  }
}

async function send<T>(method: string, url: string, body: unknown, opts: RequestOptions): Promise<T> {
  const token = opts.token === undefined ? getToken() : opts.token;
  const raw = isRawMode();
  const headers: Record<string, string> = {};
  if (token) headers.token = token;
  if (!raw) headers[ENVELOPE_HEADERS.sealed] = '1';
  let payload: string | undefined;
  if (body !== undefined && method !== 'GET') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(raw ? body : { encrypted: await sealValue(body, token) });
  }
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { method, headers, body: payload, signal: abort.signal });
    text = await res.text();
  } catch {
    effects.notifyError(NETWORK_ERROR.code, NETWORK_ERROR.msg);
    throw new ApiError(NETWORK_ERROR.code, NETWORK_ERROR.msg);
  } finally {
    clearTimeout(timer);
  }
  let answer: Answer;
  try {
    answer = JSON.parse(text) as Answer;
  } catch {
    // Not one of our answers (a proxy page, an HTTP error without a body).
    throw codedError(res.status, res.statusText || `HTTP ${res.status}`, opts.quiet === true);
  }
  if (typeof answer.error === 'number' && answer.error !== 0) {
    throw codedError(answer.error, answer.msg || res.statusText, opts.quiet === true);
  }
  if (answer.encrypted !== undefined) {
    try {
      answer = await openValue<Answer>(answer.encrypted, token);
    } catch {
      throw codedError(1004, 'invalid envelope', opts.quiet === true);
    }
  }
  return answer.data as T;
}

const answers = createTtlCache<unknown>({ ttlMs: CLIENT_CACHE_MS });

/** Forget every cached answer (sign-out, project switch). */
export function clearRequestCache(): void {
  answers.clear();
}

/** Call the API; resolves to the answer's `data`, rejects with an ApiError. */
export function request<T = unknown>(
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  opts: RequestOptions = {},
): Promise<T> {
  const share = opts.share ?? method === 'GET';
  const id = `${method} ${url} ${JSON.stringify(body ?? null)} ${opts.token ?? getToken() ?? ''}`;
  const key = share ? id : undefined;
  const cache = opts.cache ?? CLIENT_CACHE_ENABLED;
  if (cache) {
    const ttl = typeof cache === 'number' ? cache : CLIENT_CACHE_MS;
    return answers.load(id, () => queue.run(() => send<T>(method, url, body, opts), key), ttl) as Promise<T>;
  }
  return queue.run(() => send<T>(method, url, body, opts), key);
}

export const get = <T = unknown>(url: string, opts?: RequestOptions) =>
  request<T>('GET', url, undefined, opts);
export const post = <T = unknown>(url: string, body: unknown, opts?: RequestOptions) =>
  request<T>('POST', url, body, opts);
