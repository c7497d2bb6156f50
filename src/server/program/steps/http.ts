import { AppError, E } from '../../errors.ts';
import { addressOf, checkHttpUrl, SafeFetchError, safeFetch } from '../../util/safe-fetch.ts';
import { type Executor, evalExpr, fillTemplate, type RunContext } from '../context.ts';

/** Headers a step may not set: the connection's own (the address was checked, not a Host header). */
const FORBIDDEN = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'upgrade', 'te']);
const SAFE_METHODS = new Set(['GET', 'HEAD']);

function coded(e: unknown): unknown {
  if (!(e instanceof SafeFetchError)) return e;
  const def =
    e.kind === 'url'
      ? E.PROGRAM_HTTP_URL
      : e.kind === 'refused'
        ? E.PROGRAM_HTTP_REFUSED
        : e.kind === 'too-large'
          ? E.PROGRAM_HTTP_TOO_LARGE
          : E.PROGRAM_HTTP_FAILED;
  return new AppError(def, e.message);
}

function request(step: Parameters<Executor>[0], ctx: RunContext) {
  const p = step._procedure as {
    method?: string;
    url: string;
    headers?: Record<string, string>;
    body?: string;
  };
  const method = p.method ?? 'GET';
  const url = fillTemplate(ctx, p.url).trim();
  const headers: Record<string, string> = {};
  for (const [name, src] of Object.entries(p.headers ?? {})) {
    if (FORBIDDEN.has(name.toLowerCase()))
      throw new AppError(E.PROGRAM_INVALID, `headers.${name}: not allowed`);
    const v = evalExpr(ctx, src, `headers.${name}`);
    if (v === undefined || v === null) continue;
    const text = typeof v === 'string' ? v : JSON.stringify(v);
    if (/[\r\n]/.test(text)) throw new AppError(E.PROGRAM_INVALID, `headers.${name}: no line breaks`);
    headers[name.toLowerCase()] = text;
  }
  let body: string | undefined;
  if (p.body && method !== 'GET' && method !== 'HEAD') {
    const v = evalExpr(ctx, p.body, 'body');
    if (typeof v === 'string') body = v;
    else if (v !== undefined) {
      body = JSON.stringify(v);
      headers['content-type'] ??= 'application/json';
    }
  }
  return { method, url, headers, body };
}

function decode(type: string, body: Buffer): unknown {
  const text = body.toString('utf8');
  if (/[/+]json\b/i.test(type)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * An HTTP request, SSRF-safe (util/safe-fetch.ts; PROGRAM_HTTP_ALLOW names private `host:port` pairs
 * that may be reached). By default it goes to the outbox and is sent only after the run commits (never
 * for a failed or test run); its output says it was queued. With `wait` it is sent when the step runs
 * and later steps read `{status, type, body}` (JSON bodies parsed); such a request is not undone if
 * the run fails later, and a test run sends it only when its method is GET or HEAD.
 */
export const http: Executor = async (step, ctx) => {
  const r = request(step, ctx);
  let url: URL;
  try {
    url = checkHttpUrl(r.url);
    // Checked now so a refused address fails the run at once; the send checks again (DNS may change).
    await addressOf(url, ctx.http.allow);
  } catch (e) {
    throw coded(e);
  }
  const wait = step._procedure.wait === true;
  if (!wait) {
    ctx.requests.push({ step: step._handle, ...r, url: url.href });
    return { queued: true, method: r.method, url: url.href };
  }
  if (ctx.test && !SAFE_METHODS.has(r.method))
    return { sent: false, test: true, method: r.method, url: url.href };
  const left = ctx.deadline - Date.now();
  try {
    const res = await safeFetch(url.href, {
      ...ctx.http,
      timeoutMs: Math.max(1, Math.min(ctx.http.timeoutMs, left)),
      method: r.method,
      headers: r.headers,
      body: r.body,
    });
    const type = String(res.headers['content-type'] ?? '');
    return { status: res.status, type, body: decode(type, res.body) };
  } catch (e) {
    throw coded(e);
  }
};
