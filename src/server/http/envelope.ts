import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ENVELOPE_HEADERS, EnvelopeError, openText, sealText } from '../../shared/envelope-core.ts';
import { E } from '../../shared/errors.ts';
import { AppError } from '../errors.ts';
import { CORE, crossCutting } from './plugin-kit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller sent or asked for the envelope: the answer is sealed. */
    sealed: boolean;
    /** Debug mode: a sealed answer also carries the plain one. */
    debugAnswer: boolean;
  }
}

/** The token the envelope key is derived from. */
export function requestToken(request: FastifyRequest): string | undefined {
  const t = request.headers.token;
  return typeof t === 'string' && t ? t : undefined;
}

function isEnvelope(body: unknown): body is { encrypted: unknown } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  if (!('encrypted' in body)) return false;
  // `debug` may carry the plain copy for inspection; it is never used.
  return Object.keys(body).every((k) => k === 'encrypted' || k === 'debug');
}

/**
 * Request bodies of the form `{ encrypted }` are opened before validation; answers to such requests
 * (or to requests carrying `x-envelope: 1`) are sealed after serialisation. Raw mode is simply a
 * plain JSON body without that header. Error answers stay plain: they carry no data.
 */
export function installEnvelope(app: FastifyInstance, allowDebug: boolean): void {
  app.decorateRequest('sealed', false);
  app.decorateRequest('debugAnswer', false);

  // Callback-style hooks: no promise per request on the hot path.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.headers[ENVELOPE_HEADERS.sealed] === '1') request.sealed = true;
    const body = request.body;
    // A POST without a body is an empty object (clients often omit it for parameterless calls).
    if (body === undefined && request.method === 'POST') request.body = {};
    if (isEnvelope(body)) {
      request.sealed = true;
      try {
        const text = openText(body.encrypted, requestToken(request));
        request.body = text === '' ? undefined : JSON.parse(text);
      } catch (err) {
        done(
          err instanceof EnvelopeError || err instanceof SyntaxError
            ? new AppError(E.ENVELOPE)
            : (err as Error),
        );
        return;
      }
    }
    if (request.sealed && allowDebug && request.headers[ENVELOPE_HEADERS.debug] === '1') {
      request.debugAnswer = true;
    }
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (
      !request.sealed ||
      reply.statusCode !== 200 ||
      typeof payload !== 'string' ||
      !payload.startsWith('{"error":0')
    ) {
      done(null, payload);
      return;
    }
    const sealed = sealText(payload, requestToken(request));
    reply.header(ENVELOPE_HEADERS.sealed, '1');
    done(
      null,
      request.debugAnswer
        ? `{"error":0,"encrypted":"${sealed}","debug":${payload}}`
        : `{"error":0,"encrypted":"${sealed}"}`,
    );
  });
}

export default crossCutting(CORE.envelope, (app) => installEnvelope(app, app.config.allowDebug));
