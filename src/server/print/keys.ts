/**
 * New-window print keys: the print data kept under a generated key until the print page takes it,
 * once, within PRINT_KEY_TTL_MS. Rows live in the database, so any process may answer the take.
 */
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { PRINT_DATA_MAX_CHARS, PRINT_KEY_TTL_MS, type PrintOption } from '../../shared/print.ts';
import type { DB } from '../db/schema.ts';
import { E, fail } from '../errors.ts';

/** A key the client proposes: url-safe, 16–64 characters (so it cannot be guessed either). */
export const KEY_PATTERN = '^[A-Za-z0-9_-]{16,64}$';

export interface PreparedKey {
  key: string;
  expiresAt: number;
}

export async function prepareKey(
  db: Kysely<DB>,
  input: { project: string; user: string | null; page: string; data: PrintOption; key?: string },
  now = Date.now(),
): Promise<PreparedKey> {
  const json = JSON.stringify(input.data ?? {});
  if (json.length > PRINT_DATA_MAX_CHARS)
    fail(E.PRINT_DATA_TOO_LARGE, `at most ${PRINT_DATA_MAX_CHARS} characters`);
  await db.deleteFrom('print_keys').where('expires_at', '<', now).execute();
  const key = input.key ?? crypto.randomBytes(24).toString('base64url');
  const expiresAt = now + PRINT_KEY_TTL_MS;
  try {
    await db
      .insertInto('print_keys')
      .values({
        key,
        project_id: input.project,
        user_id: input.user,
        page: input.page,
        data: json,
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
  } catch (err) {
    const taken = await db.selectFrom('print_keys').select('key').where('key', '=', key).executeTakeFirst();
    if (taken) fail(E.PRINT_KEY_TAKEN);
    throw err;
  }
  return { key, expiresAt };
}

/**
 * Takes a key: its page and data, and the key is gone. Unknown, used, expired, another project's or
 * another user's key: 2120 (the same answer for each, so keys cannot be probed).
 */
export async function takeKey(
  db: Kysely<DB>,
  input: { project: string; user: string | null; key: string },
  now = Date.now(),
): Promise<{ page: string; data: PrintOption }> {
  const row = await db
    .selectFrom('print_keys')
    .selectAll()
    .where('key', '=', input.key)
    .where('project_id', '=', input.project)
    .executeTakeFirst();
  if (!row || row.expires_at < now || (row.user_id ?? null) !== input.user) fail(E.PRINT_KEY_INVALID);
  const gone = await db.deleteFrom('print_keys').where('key', '=', input.key).executeTakeFirst();
  // Two takers at once: only the one whose delete removed the row gets the data.
  if (Number(gone.numDeletedRows) !== 1) fail(E.PRINT_KEY_INVALID);
  return { page: row.page, data: JSON.parse(row.data) as PrintOption };
}
