import type { FastifyInstance } from 'fastify';
import type { Session, UserRow } from './service.ts';

/**
 * Resolved sessions kept in memory, so a signed-in call costs no database round trip. Entries live
 * at most TTL_MS; any change to sessions, users, memberships or roles clears the whole cache
 * (`sessionsChanged`), so bans, kicks, password changes and demotions act on the very next call
 * of this process. Such changes are rare next to reads, so clearing everything is cheap and leaves
 * no child-token or membership case to get wrong. Keys are token hashes (256-bit random), unique
 * across databases, so one cache serves the process.
 */
const TTL_MS = 10_000;
const MAX = 50_000;

interface Entry {
  session: Session;
  user: UserRow;
  at: number;
}

const byToken = new Map<string, Entry>();
const listeners = new Set<() => void>();
/** Bumped by every clear: a lookup that began before a clear must not refill the cache. */
let generation = 0;

export function cacheGeneration(): number {
  return generation;
}

export function cachedSession(tokenHash: string, now = Date.now()): Entry | undefined {
  const e = byToken.get(tokenHash);
  if (!e) return undefined;
  if (now - e.at > TTL_MS || now > e.session.expiresAt) {
    byToken.delete(tokenHash);
    return undefined;
  }
  return e;
}

export function rememberSession(session: Session, user: UserRow, since: number, now = Date.now()): void {
  if (since !== generation) return;
  if (byToken.size >= MAX) byToken.clear();
  byToken.set(session.tokenHash, { session, user, at: now });
}

/** Sessions, users, memberships or roles changed: forget every cached session. */
export function sessionsChanged(): void {
  generation++;
  byToken.clear();
  for (const l of listeners) l();
}

/**
 * For areas whose every successful write may change who can do what (members, roles): after any
 * answered call of the context that is not a list read, forget the cached sessions.
 */
export function forgetSessionsAfterWrites(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode === 200 && !/\/(list|children)$/.test(request.url.split('?')[0]!)) sessionsChanged();
  });
}

/** Be told of local changes (e.g. to broadcast them to other processes). */
export function onSessionsChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Clear without telling listeners (a change announced by another process). */
export function clearSessionCache(): void {
  generation++;
  byToken.clear();
}
