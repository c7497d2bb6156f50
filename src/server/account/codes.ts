import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  CAPTCHA_TTL_MS,
  VERIFY_CODE_COOLDOWN_MS,
  VERIFY_CODE_MAX_TRIES,
  VERIFY_CODE_TTL_MS,
} from '../../shared/constants.ts';
import type { DB } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import { newToken, safeEqualHex, sha256hex } from './tokens.ts';

/** A new image captcha: its ticket and an SVG image; the answer is stored hashed, single use. */
export async function createCaptcha(
  db: Kysely<DB>,
): Promise<{ ticket: string; img: string; answer: string }> {
  // Read on the first captcha (its fonts are large), not at server start.
  const { default: svgCaptcha } = await import('svg-captcha');
  const c = svgCaptcha.create({
    size: 4,
    noise: 3,
    ignoreChars: '0oO1iIlL',
    color: true,
    width: 120,
    height: 40,
  });
  const ticket = newToken().slice(0, 32);
  const now = Date.now();
  await db.deleteFrom('captchas').where('expires_at', '<', now).execute();
  await db
    .insertInto('captchas')
    .values({ id: ticket, answer: sha256hex(c.text.toLowerCase()), expires_at: now + CAPTCHA_TTL_MS })
    .execute();
  const img = `data:image/svg+xml;base64,${Buffer.from(c.data).toString('base64')}`;
  return { ticket, img, answer: c.text };
}

/** Check and consume a captcha: one try per ticket, right or wrong. */
export async function consumeCaptcha(db: Kysely<DB>, ticket: string, answer: string): Promise<void> {
  const row = await db.selectFrom('captchas').selectAll().where('id', '=', ticket).executeTakeFirst();
  if (!row) fail(E.CAPTCHA_WRONG);
  // Only the request whose delete removed the row may use it: parallel ones all read it above.
  const spent = await db.deleteFrom('captchas').where('id', '=', ticket).executeTakeFirst();
  if (spent.numDeletedRows === 0n) fail(E.CAPTCHA_WRONG);
  if (row.expires_at < Date.now() || !safeEqualHex(row.answer, sha256hex(answer.trim().toLowerCase()))) {
    fail(E.CAPTCHA_WRONG);
  }
}

/** Issue a 6-digit code for (phone, type), honouring the resend cool-down. Answers the code. */
export async function issueCode(db: Kysely<DB>, phone: string, type: string): Promise<string> {
  const now = Date.now();
  const last = await db
    .selectFrom('verify_codes')
    .select('created_at')
    .where('phone', '=', phone)
    .where('type', '=', type)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (last && now - last.created_at < VERIFY_CODE_COOLDOWN_MS) fail(E.CODE_TOO_SOON);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db.deleteFrom('verify_codes').where('phone', '=', phone).where('type', '=', type).execute();
  await db
    .insertInto('verify_codes')
    .values({
      phone,
      type,
      code_hash: sha256hex(code),
      tries: 0,
      expires_at: now + VERIFY_CODE_TTL_MS,
      created_at: now,
    })
    .execute();
  return code;
}

/**
 * Check a code; a right one is consumed. Every try counts, and the code is void after the
 * maximum, so six digits cannot be walked, not even by parallel requests.
 */
export async function consumeCode(db: Kysely<DB>, phone: string, type: string, code: string): Promise<void> {
  const row = await db
    .selectFrom('verify_codes')
    .selectAll()
    .where('phone', '=', phone)
    .where('type', '=', type)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  if (!row || row.expires_at < Date.now() || row.tries >= VERIFY_CODE_MAX_TRIES) fail(E.VERIFY_WRONG);
  // Spend a try before comparing, atomically in the database: parallel guesses that all read the
  // same count above must not all get a free try.
  const tried = await db
    .updateTable('verify_codes')
    .set((eb) => ({ tries: eb('tries', '+', 1) }))
    .where('id', '=', row.id)
    .where('tries', '<', VERIFY_CODE_MAX_TRIES)
    .executeTakeFirst();
  if (tried.numUpdatedRows === 0n) fail(E.VERIFY_WRONG);
  if (!safeEqualHex(row.code_hash, sha256hex(code))) fail(E.VERIFY_WRONG);
  // A right code is used once: only the request whose delete removed it succeeds.
  const used = await db.deleteFrom('verify_codes').where('id', '=', row.id).executeTakeFirst();
  if (used.numDeletedRows === 0n) fail(E.VERIFY_WRONG);
}
