/** Single-use OAuth states and sign-in codes, and third-party identities (SQL only). */
import type { Kysely } from 'kysely';
import { newToken, sha256hex } from '../account/tokens.ts';
import type { DB, ThirdStatesTable } from '../db/schema.ts';

/** How long an OAuth state (the trip to the provider and back) stays valid. */
export const STATE_TTL_MS = 10 * 60 * 1000;
/** How long a sign-in code (`wx_token`, exchanged by oauth/id) stays valid. */
export const CODE_TTL_MS = 2 * 60 * 1000;

type Purpose = ThirdStatesTable['purpose'];
type Provider = ThirdStatesTable['provider'];

/** Store a new random state/code (only its hash) and answer it. */
export async function issueState(
  db: Kysely<DB>,
  purpose: Purpose,
  provider: Provider,
  userId: string | null,
  data: Record<string, unknown>,
  ttlMs: number,
  now = Date.now(),
): Promise<string> {
  const value = newToken();
  await db
    .insertInto('third_states')
    .values({
      hash: sha256hex(value),
      purpose,
      provider,
      user_id: userId,
      data: JSON.stringify(data),
      expires_at: now + ttlMs,
    })
    .execute();
  return value;
}

/**
 * Take a state once: deleted (live or expired) when it is of this purpose, answered only when it is
 * live. A value of another purpose (a bind code offered as a sign-in code) is left alone. Two
 * concurrent uses cannot both win: only the call whose delete removed the row gets it.
 */
export async function consumeState(
  db: Kysely<DB>,
  value: string,
  purpose: Purpose,
  now = Date.now(),
): Promise<ThirdStatesTable | undefined> {
  const hash = sha256hex(value);
  const row = await db.selectFrom('third_states').selectAll().where('hash', '=', hash).executeTakeFirst();
  if (!row || row.purpose !== purpose) return undefined;
  const r = await db
    .deleteFrom('third_states')
    .where('hash', '=', hash)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  if (Number(r.numDeletedRows) !== 1) return undefined;
  if (row.expires_at < now) return undefined;
  return row;
}

export async function identityUser(
  db: Kysely<DB>,
  provider: Provider,
  subject: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('third_identities')
    .select('user_id')
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row?.user_id;
}

export async function addIdentity(
  db: Kysely<DB>,
  provider: Provider,
  subject: string,
  userId: string,
): Promise<void> {
  await db
    .insertInto('third_identities')
    .values({ provider, subject, user_id: userId, created_at: Date.now() })
    .execute();
}

/** The providers a user is bound to. */
export async function userIdentities(db: Kysely<DB>, userId: string): Promise<Provider[]> {
  const rows = await db
    .selectFrom('third_identities')
    .select('provider')
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.provider as Provider);
}

export async function removeIdentity(db: Kysely<DB>, provider: Provider, userId: string): Promise<void> {
  await db
    .deleteFrom('third_identities')
    .where('provider', '=', provider)
    .where('user_id', '=', userId)
    .execute();
}
