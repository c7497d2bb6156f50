import type { Session, UserRow } from './service.ts';

/**
 * Resolved sessions kept in memory, so a signed-in call costs no database round trip. Entries live
 * at most TTL_MS and are dropped at once by every revocation and user change made through the
 * account service, so bans, kicks and password changes act on the very next call of this process.
 * Keys are token hashes (256-bit random), unique across databases, so one cache serves the process.
 */
const TTL_MS = 10_000;
const MAX = 50_000;

interface Entry {
  session: Session;
  user: UserRow;
  at: number;
}

const byToken = new Map<string, Entry>();
const byUser = new Map<string, Set<string>>();

export function cachedSession(tokenHash: string, now = Date.now()): Entry | undefined {
  const e = byToken.get(tokenHash);
  if (!e) return undefined;
  if (now - e.at > TTL_MS || now > e.session.expiresAt) {
    forgetToken(tokenHash);
    return undefined;
  }
  return e;
}

export function rememberSession(session: Session, user: UserRow, now = Date.now()): void {
  if (byToken.size >= MAX) {
    // Drop the oldest tenth (Map keeps insertion order).
    let n = MAX / 10;
    for (const key of byToken.keys()) {
      forgetToken(key);
      if (--n <= 0) break;
    }
  }
  byToken.set(session.tokenHash, { session, user, at: now });
  let set = byUser.get(user.id);
  if (!set) {
    set = new Set();
    byUser.set(user.id, set);
  }
  set.add(session.tokenHash);
}

export function forgetToken(tokenHash: string): void {
  const e = byToken.get(tokenHash);
  if (!e) return;
  byToken.delete(tokenHash);
  const set = byUser.get(e.user.id);
  set?.delete(tokenHash);
  if (set && set.size === 0) byUser.delete(e.user.id);
}

/**
 * Forget every cached session of a user, and the child sessions opened from them (after a
 * revocation or any change to the user).
 */
export function forgetUser(userId: string): void {
  const set = byUser.get(userId);
  if (!set) return;
  byUser.delete(userId);
  for (const h of set) byToken.delete(h);
  for (const [h, e] of byToken) if (e.session.parentHash && set.has(e.session.parentHash)) forgetToken(h);
}

/** Forget child sessions opened from a parent session. */
export function forgetChildren(parentHash: string): void {
  for (const [h, e] of byToken) if (e.session.parentHash === parentHash) forgetToken(h);
}
