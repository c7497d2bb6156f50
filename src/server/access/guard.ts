import type { FastifyRequest } from 'fastify';
import { resolveToken } from '../account/service.ts';
import { E, fail } from '../errors.ts';
import { requestToken } from '../http/envelope.ts';

/**
 * preHandler for calls anonymous users may make (public projects): no token is fine, but a token
 * that is sent must be live, so a kicked user is told so instead of silently becoming anonymous.
 */
export async function optionalUser(request: FastifyRequest): Promise<void> {
  const token = requestToken(request);
  if (!token) return;
  const found = await resolveToken(request.server.database.db, token);
  if (!found) fail(E.TOKEN_INVALID);
  if (found.user.status !== 'active') fail(E.BANNED);
  request.user = found.user;
  request.session = found.session;
}
