/** The members list's search: name, account or phone contains the text (case-insensitive). */
export function matchesMember(
  m: { name: string; account: string | null; phone: string | null; nickname: string },
  text: string,
): boolean {
  const q = text.trim().toLowerCase();
  if (!q) return true;
  return [m.name, m.nickname, m.account ?? '', m.phone ?? ''].some((v) => v.toLowerCase().includes(q));
}
