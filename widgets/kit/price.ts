/** A price as a shop shows it: the sign, two decimals (none for whole amounts of 1,000 and more). */
export function priceText(v: unknown, sign: string): string {
  const n = Number(v);
  if (v === null || v === undefined || v === '' || !Number.isFinite(n)) return '';
  return `${sign}${n >= 1000 && Number.isInteger(n) ? n.toString() : n.toFixed(2)}`;
}
