import type { FastifyInstance, FastifyRequest } from 'fastify';
import { E, fail } from '../errors.ts';
import { requestToken } from '../http/envelope.ts';
import { CORE, crossCutting } from '../http/plugin-kit.ts';
import { resolveToken, type Session, type UserRow } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    user: UserRow | null;
    session: Session | null;
  }
}

export function installAuth(app: FastifyInstance): void {
  app.decorateRequest('user', null);
  app.decorateRequest('session', null);
}

/** Resolve the caller from the token header; undefined when there is none or it is not valid. */
export async function loadCaller(request: FastifyRequest): Promise<UserRow | null> {
  if (request.user) return request.user;
  const token = requestToken(request);
  if (!token) return null;
  const found = await resolveToken(request.server.database.db, token);
  if (found?.user.status !== 'active') return null;
  request.user = found.user;
  request.session = found.session;
  return found.user;
}

/** preHandler: the caller must be signed in with a live session of an active user. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  const token = requestToken(request);
  if (!token) fail(E.AUTH_REQUIRED);
  const found = await resolveToken(request.server.database.db, token);
  if (!found) fail(E.TOKEN_INVALID);
  if (found.user.status !== 'active') fail(E.BANNED);
  request.user = found.user;
  request.session = found.session;
}

/** The signed-in caller (after requireUser). */
export function caller(request: FastifyRequest): UserRow {
  if (!request.user) fail(E.AUTH_REQUIRED);
  return request.user;
}

export default crossCutting(CORE.auth, installAuth, [CORE.envelope]);
