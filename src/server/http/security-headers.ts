/**
 * Security headers (README "Security"). Every answer says `nosniff` and keeps its URL from other
 * sites (`Referrer-Policy: same-origin`: tokens ride in some app URLs). The app shell adds the app's
 * Content-Security-Policy and refuses to be framed by other sites; the sandbox frame, where builder
 * code runs, has a policy of its own that allows no network at all (src/shared/sandbox-frame.ts).
 *
 * Hand-written rather than @fastify/helmet: two different policies on two routes and four headers
 * elsewhere; helmet's defaults would also put a CSP on JSON and the API docs and add cross-origin
 * isolation headers nothing here asked for.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  SANDBOX_FRAME_PATH,
  SANDBOX_FRAME_SCRIPT,
  sandboxFrameCsp,
  sandboxFrameHtml,
} from '../../shared/sandbox-frame.ts';
import { CORE, crossCutting } from './plugin-kit.ts';

/**
 * The app shell's policy. Scripts only from our own files (no inline script, no other host);
 * `'unsafe-eval'` because ajv compiles the page and widget schemas into functions in the designer and
 * the property panel. Styles may be inline (antd's CSS variables, Monaco, chart tooltips). Images from
 * anywhere, data: and blob: (builders' image URLs, uploads, charts saved as pictures); frames of our
 * own (the builder-code sandbox) and any web page (the iframe widget, itself sandboxed). Connections
 * to our own origin (API, socket.io, y-websocket: `'self'` covers ws: and wss: of the same host), and
 * to the desktop print client's WebSocket on the user's own computer (`ws://127.0.0.1`, any port).
 * Workers from our own files (Monaco's). Only our own pages may frame the app.
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: http: https:",
  "font-src 'self' data:",
  "connect-src 'self' ws://127.0.0.1:*",
  "worker-src 'self'",
  "frame-src 'self' http: https:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** Headers of the app shell (index.html for every client route). */
export const APP_SHELL_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': APP_CSP,
  // For browsers that do not know frame-ancestors.
  'x-frame-options': 'SAMEORIGIN',
};

/**
 * The app shell's headers when the messaging apps' JS-SDK scripts are configured: their origins
 * (and only those) join script-src, so a page inside WeChat or WeCom can load `wx` / `ww`.
 */
export function appShellHeaders(scriptUrls: readonly string[]): Readonly<Record<string, string>> {
  const origins = [
    ...new Set(
      scriptUrls.flatMap((u) => {
        try {
          const o = new URL(u);
          return o.protocol === 'https:' || o.protocol === 'http:' ? [o.origin] : [];
        } catch {
          return [];
        }
      }),
    ),
  ];
  if (!origins.length) return APP_SHELL_HEADERS;
  const csp = APP_CSP.replace(
    "script-src 'self' 'unsafe-eval'",
    `script-src 'self' 'unsafe-eval' ${origins.join(' ')}`,
  );
  return { ...APP_SHELL_HEADERS, 'content-security-policy': csp };
}

/** The hash of the sandbox frame's one script, as its policy names it. */
export const SANDBOX_SCRIPT_HASH = `sha256-${createHash('sha256').update(SANDBOX_FRAME_SCRIPT).digest('base64')}`;

/** The sandbox frame's policy (also its worker's). */
export const SANDBOX_FRAME_CSP = sandboxFrameCsp(SANDBOX_SCRIPT_HASH);

/** nosniff and Referrer-Policy on every answer; the sandbox frame's route. */
export function installSecurityHeaders(app: FastifyInstance): void {
  // Callback style: this runs on every request.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    done();
  });

  const html = sandboxFrameHtml();
  app.get(SANDBOX_FRAME_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('content-security-policy', SANDBOX_FRAME_CSP)
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html),
  );
}

export default crossCutting(CORE.headers, installSecurityHeaders);
