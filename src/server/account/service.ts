import { hash, verify } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import { SESSION_TTL_MS } from '../../shared/constants.ts';
import { newId } from '../../shared/id.ts';
import { displayName } from '../../shared/validation.ts';
import type { DB, UsersTable } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import { cachedSession, cacheGeneration, rememberSession, sessionsChanged } from './session-cache.ts';

/** A user, membership or role changed: cached sessions must be looked up again. */
export const userChanged = (_userId?: string): void => sessionsChanged();

import { newToken, sha256hex } from './tokens.ts';

const ARGON = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(pwd: string): Promise<string> {
  return hash(pwd, ARGON);
}

export async function checkPassword(stored: string, pwd: string): Promise<boolean> {
  try {
    return await verify(stored, pwd);
  } catch {
    return false;
  }
}

// A hash to verify against when the account is unknown, so both paths take the same time.
let dummyHash: Promise<string> | undefined;
export function dummyPasswordCheck(pwd: string): Promise<boolean> {
  dummyHash ??= hashPassword('dummy-password-1');
  return dummyHash.then((h) => checkPassword(h, pwd));
}

export type UserRow = UsersTable;

/** The user as the API shows it. */
export function publicUser(u: UserRow) {
  return {
    _id: u.id,
    account: u.account,
    nickname: u.nickname,
    name: displayName(u),
    phone: u.phone,
    avatar: u.avatar,
    status: u.status,
    createdAt: u.created_at,
    /** The user who owns this account (a sub-user's creator), else null. */
    owner: u.parent_id,
    /** Signed up through the messaging app (spec: wechat-user flag). */
    wechat: isWechatAccount(u.account),
    /** Role and standing in a project, filled where a project is known (login, userInfo). */
    role: null as UserRole | null,
    auth: null as string | null,
  };
}

/** A user's role in one project as the user object carries it. */
export interface UserRole {
  _id: string;
  name: string;
  type: string;
  home: { type: string; value: string } | null;
  options: { apply: boolean; enable: boolean; reg: boolean };
}

export const isWechatAccount = (account: string | null): boolean => !!account?.startsWith('weixin_');

export async function findUserByLogin(db: Kysely<DB>, login: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('account', '=', login), eb('phone', '=', login)]))
    .executeTakeFirst();
}

export async function findUserById(db: Kysely<DB>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface NewUser {
  account: string | null;
  phone: string | null;
  nickname: string;
  pwd: string;
  parentId?: string | null;
}

/** Create a user; answers the taken error when account or phone is in use. */
export async function createUser(db: Kysely<DB>, input: NewUser): Promise<UserRow> {
  if (input.account) {
    const taken = await db
      .selectFrom('users')
      .select('id')
      .where('account', '=', input.account)
      .executeTakeFirst();
    if (taken) fail(E.ACCOUNT_TAKEN);
  }
  if (input.phone) {
    const taken = await db
      .selectFrom('users')
      .select('id')
      .where('phone', '=', input.phone)
      .executeTakeFirst();
    if (taken) fail(E.PHONE_TAKEN);
  }
  const now = Date.now();
  const row: UserRow = {
    id: newId(now),
    account: input.account,
    phone: input.phone,
    nickname: input.nickname,
    pwd: await hashPassword(input.pwd),
    status: 'active',
    avatar: null,
    parent_id: input.parentId ?? null,
    created_at: now,
    updated_at: now,
  };
  try {
    await db.insertInto('users').values(row).execute();
  } catch (err) {
    // A concurrent registration won the unique index.
    if (isUniqueViolation(err)) fail(E.ACCOUNT_TAKEN);
    throw err;
  }
  return row;
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

export interface Session {
  tokenHash: string;
  userId: string;
  kind: 'login' | 'child';
  parentHash: string | null;
  expiresAt: number;
  /** Child tokens act only in this project. */
  projectId: string | null;
}

/** Open a session for a user and answer its token (shown once; only the hash is stored). */
export async function createSession(
  db: Kysely<DB>,
  userId: string,
  kind: 'login' | 'child' = 'login',
  parentHash: string | null = null,
  projectId: string | null = null,
): Promise<string> {
  const token = newToken();
  const now = Date.now();
  await db
    .insertInto('sessions')
    .values({
      token_hash: sha256hex(token),
      user_id: userId,
      kind,
      parent_hash: parentHash,
      project_id: projectId,
      created_at: now,
      expires_at: now + SESSION_TTL_MS,
    })
    .execute();
  return token;
}

/** The live session and active user for a token, or undefined. */
export async function resolveToken(
  db: Kysely<DB>,
  token: string,
): Promise<{ session: Session; user: UserRow } | undefined> {
  if (token.length < 16 || token.length > 128) return undefined;
  const tokenHash = sha256hex(token);
  const hit = cachedSession(tokenHash);
  const since = cacheGeneration();
  if (hit) return { session: hit.session, user: hit.user };
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.token_hash',
      'sessions.kind',
      'sessions.parent_hash',
      'sessions.project_id as session_project',
      'sessions.expires_at',
      'users.id',
      'users.account',
      'users.phone',
      'users.nickname',
      'users.pwd',
      'users.status',
      'users.avatar',
      'users.parent_id',
      'users.created_at',
      'users.updated_at',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row || row.expires_at < Date.now()) return undefined;
  const { token_hash, kind, parent_hash, session_project, expires_at, ...user } = row;
  const session: Session = {
    tokenHash: token_hash,
    userId: user.id,
    kind,
    parentHash: parent_hash,
    projectId: session_project,
    expiresAt: expires_at,
  };
  rememberSession(session, user, since);
  return { session, user };
}

/** End one session and the child sessions opened from it. */
export async function revokeSession(db: Kysely<DB>, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('parent_hash', '=', tokenHash).execute();
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  sessionsChanged();
}

/** End every session of a user (password change, reset, ban, kick), and children opened from them. */
export async function revokeUserSessions(db: Kysely<DB>, userId: string): Promise<void> {
  const ownQuery = db.selectFrom('sessions').select('token_hash').where('user_id', '=', userId);
  await db.deleteFrom('sessions').where('parent_hash', 'in', ownQuery).execute();
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  sessionsChanged();
}

export async function setPassword(db: Kysely<DB>, userId: string, pwd: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ pwd: await hashPassword(pwd), updated_at: Date.now() })
    .where('id', '=', userId)
    .execute();
  await revokeUserSessions(db, userId);
}

/**
 * A registered account: created, and `join` (joining a project) run in the same transaction, so a
 * refused join leaves no account behind.
 */
export function registerUser(
  db: Kysely<DB>,
  input: NewUser,
  join?: (trx: Kysely<DB>, userId: string) => Promise<void>,
): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    const u = await createUser(trx, input);
    if (join) await join(trx, u.id);
    return u;
  });
}

/** Change what a user shows of themself (nickname, avatar) or their phone. */
export async function updateUser(
  db: Kysely<DB>,
  userId: string,
  patch: { nickname?: string; avatar?: string | null; phone?: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...patch, updated_at: Date.now() })
    .where('id', '=', userId)
    .execute();
}
