/**
 * Keep session tokens out of the logs. Tokens reach URLs in several ways: `?token=` (the co-editing
 * endpoint, links), the shell's `o_u_token…`, `wx_token`, `wxapp_token` query options, and the
 * token sign-in route `/login/{token}` (also under a project prefix). The request serializer writes
 * URLs with those values replaced; headers that carry credentials are censored if anything logs them.
 */
import type { FastifyRequest } from 'fastify';

export const REDACTED = '[redacted]';

/** Query parameters whose values are credentials. */
const SECRET_PARAM = /token|secret|password|pwd/i;
/** `/login/{token}` and `/{project}/login/{token}`; the other login children are not tokens. */
const LOGIN_TOKEN = /^((?:\/[^/?#]+)?\/login\/)(?!register(?:$|[/?#])|forget(?:$|[/?#]))([^/?#]+)/;

function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** The URL with every credential in its path or query replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q)).replace(LOGIN_TOKEN, `$1${REDACTED}`);
  if (q < 0) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return SECRET_PARAM.test(decoded(name)) && eq >= 0 ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Pino options for the app's logger: the request serializer above, and credential headers censored. */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream) {
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        };
      },
    },
    redact: {
      paths: [
        'req.headers.token',
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.token',
        'headers.authorization',
        'headers.cookie',
        'token',
      ],
      censor: REDACTED,
    },
  };
}
