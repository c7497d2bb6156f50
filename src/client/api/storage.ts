/** Local keys the client keeps between visits. */
export const KEYS = { token: 'token', raw: 'lc_raw', lang: 'lang' } as const;

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** The signed-in user's token, or null. */
export function getToken(): string | null {
  return read(KEYS.token) || null;
}

export function setToken(token: string | null): void {
  if (token) localStorage.setItem(KEYS.token, token);
  else localStorage.removeItem(KEYS.token);
}

/** Raw mode (`lc_raw=1`): bodies travel as plain JSON, answers are asked for unsealed. */
export function isRawMode(): boolean {
  return read(KEYS.raw) === '1';
}
