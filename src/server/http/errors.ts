import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { E, type ErrorDef } from '../../shared/errors.ts';
import { QueryError } from '../../shared/query/error.ts';
import { AppError } from '../errors.ts';
import { CORE, crossCutting } from './plugin-kit.ts';

const FASTIFY_CODES: Record<string, ErrorDef> = {
  FST_ERR_CTP_INVALID_JSON: E.MALFORMED,
  // Fastify 5's name for a body that is not JSON (or holds a forbidden __proto__/constructor key).
  FST_ERR_CTP_INVALID_JSON_BODY: E.MALFORMED,
  FST_ERR_CTP_EMPTY_JSON_BODY: E.MALFORMED,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: E.MALFORMED,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: E.MALFORMED,
  FST_ERR_CTP_INVALID_TYPE: E.MALFORMED,
  FST_ERR_CTP_BODY_TOO_LARGE: E.TOO_LARGE,
  FST_ERR_BAD_URL: E.BAD_REQUEST,
  FST_ERR_MAX_PARAM_LENGTH: E.BAD_REQUEST,
  FST_ERR_ASYNC_CONSTRAINT: E.BAD_REQUEST,
};

/**
 * Router failures (bad percent-encoding, an overlong param) never reach the error handler: without
 * this Fastify answers them in its own shape, which our clients cannot read. Pass as `frameworkErrors`.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const def = FASTIFY_CODES[err.code] ?? E.BAD_REQUEST;
  reply.status(def.status).send({ error: def.code, msg: def.msg });
}

/** Every failure becomes `{ error, msg }` from the registry: never a stack trace or a driver message. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError | QueryError, request, reply) => {
    let def: ErrorDef;
    let msg: string;
    let data: unknown;
    if (err instanceof AppError || err instanceof QueryError) {
      def = err.def;
      msg = err.message;
      if (err instanceof AppError) data = err.data;
    } else if ((err as FastifyError).validation) {
      def = E.BAD_REQUEST;
      msg = `${def.msg}: ${err.message}`;
    } else if ((err as FastifyError).code && FASTIFY_CODES[(err as FastifyError).code]) {
      def = FASTIFY_CODES[(err as FastifyError).code]!;
      msg = def.msg;
    } else if ((err as FastifyError).statusCode === 429) {
      def = E.RATE_LIMITED;
      msg = def.msg;
    } else if ((err as FastifyError).statusCode && (err as FastifyError).statusCode! < 500) {
      def = E.BAD_REQUEST;
      msg = def.msg;
    } else {
      request.log.error({ err }, 'unhandled error');
      def = E.INTERNAL;
      msg = def.msg;
    }
    if (def.status >= 500) reply.header('connection', 'close');
    reply
      .status(def.status)
      .send(data === undefined ? { error: def.code, msg } : { error: def.code, msg, data });
  });
}

export default crossCutting(CORE.errors, installErrorHandling);
