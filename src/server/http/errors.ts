import type { FastifyError, FastifyInstance } from 'fastify';
import { E, type ErrorDef } from '../../shared/errors.ts';
import { QueryError } from '../../shared/query/error.ts';
import { AppError } from '../errors.ts';

const FASTIFY_CODES: Record<string, ErrorDef> = {
  FST_ERR_CTP_INVALID_JSON: E.MALFORMED,
  FST_ERR_CTP_EMPTY_JSON_BODY: E.MALFORMED,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: E.MALFORMED,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: E.MALFORMED,
  FST_ERR_CTP_INVALID_TYPE: E.MALFORMED,
  FST_ERR_CTP_BODY_TOO_LARGE: E.TOO_LARGE,
  FST_ERR_BAD_URL: E.BAD_REQUEST,
  FST_ERR_ASYNC_CONSTRAINT: E.BAD_REQUEST,
};

/** Every failure becomes `{ error, msg }` from the registry: never a stack trace or a driver message. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError | QueryError, request, reply) => {
    let def: ErrorDef;
    let msg: string;
    if (err instanceof AppError || err instanceof QueryError) {
      def = err.def;
      msg = err.message;
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
    reply.status(def.status).send({ error: def.code, msg });
  });
}
