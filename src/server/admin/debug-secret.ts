import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The debug secret of one project on one host (builder spec §4: "a secret derived from host and
 * project id"): HMAC-SHA256 of `host/project` under DEBUG_SECRET, 16 hex characters. The operator
 * hands it to whoever may debug (`node scripts/debug-secret.mjs <host> <project>`).
 */
export function debugSecret(key: string, host: string, projectId: string): string {
  return createHmac('sha256', key).update(`${host.toLowerCase()}/${projectId}`).digest('hex').slice(0, 16);
}

/** Whether `given` is that secret (compared in constant time). */
export function debugSecretMatches(
  key: string | undefined,
  host: string,
  projectId: string,
  given: string,
): boolean {
  if (!key) return false;
  const want = Buffer.from(debugSecret(key, host, projectId));
  const got = Buffer.from(given.trim().toLowerCase());
  return got.length === want.length && timingSafeEqual(got, want);
}
