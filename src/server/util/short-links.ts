/**
 * Short links (runtime spec: `POST /api/common/utils/short {url}`): an absolute http(s) URL gets a
 * short code followed at `GET /s/{code}`. The same URL always answers the same code, so repeated
 * shares of one link do not fill the table.
 */
import { createHash, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { E, fail } from '../errors.ts';

/** Longest URL accepted (browsers and proxies start refusing longer ones). */
export const SHORT_URL_MAX = 2048;
const CODE_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const CODE_LENGTH = 8;
export const SHORT_CODE = /^[A-Za-z0-9]{4,16}$/;

/** The URL as it will be stored, or the coded refusal: absolute, http(s), no credentials, no control characters. */
export function checkShortUrl(raw: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (raw.length > SHORT_URL_MAX || /[\u0000-\u001f\u007f\s]/.test(raw)) fail(E.SHORT_URL_INVALID);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    fail(E.SHORT_URL_INVALID);
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) fail(E.SHORT_URL_INVALID);
  if (u.username || u.password) fail(E.SHORT_URL_INVALID, 'links carrying credentials are refused');
  return u.href;
}

function newCode(): string {
  let s = '';
  for (let i = 0; i < CODE_LENGTH; i++) s += CODE_CHARS[randomInt(CODE_CHARS.length)];
  return s;
}

/** The code for a URL: the existing one, or a new one (a collision of codes draws again). */
export async function shorten(db: Kysely<DB>, raw: string, userId: string | null): Promise<string> {
  const url = checkShortUrl(raw);
  const urlHash = createHash('sha256').update(url).digest('hex');
  for (let attempt = 0; attempt < 5; attempt++) {
    const found = await db
      .selectFrom('short_links')
      .select('code')
      .where('url_hash', '=', urlHash)
      .executeTakeFirst();
    if (found) return found.code;
    const code = newCode();
    const inserted = await db
      .insertInto('short_links')
      .values({ code, url_hash: urlHash, url, created_by: userId, created_at: Date.now() })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return code;
    // Another request stored this URL meanwhile (found on the next turn), or the code was taken.
  }
  fail(E.INTERNAL, 'no free short code');
}

/** Where a code leads (counting the visit), or the coded not-found. */
export async function follow(db: Kysely<DB>, code: string): Promise<string> {
  if (!SHORT_CODE.test(code)) fail(E.SHORT_NOT_FOUND);
  const row = await db.selectFrom('short_links').select('url').where('code', '=', code).executeTakeFirst();
  if (!row) fail(E.SHORT_NOT_FOUND);
  await db
    .updateTable('short_links')
    .set((eb) => ({ hits: eb('hits', '+', 1) }))
    .where('code', '=', code)
    .execute();
  return row.url;
}
