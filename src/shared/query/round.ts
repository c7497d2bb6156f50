/**
 * Rounding for summaries: half away from zero, applied to the shortest decimal text of the double
 * (what JS prints), so 1.005 → 1.01 and -2.5 → -3 at 0 digits. Digits are clamped to 0..10.
 */
import { ACCURACY_DEFAULT } from '../constants.ts';

export function roundHalfAway(x: number, digits: number = ACCURACY_DEFAULT): number {
  if (!Number.isFinite(x)) return x;
  const d = Math.min(10, Math.max(0, Math.trunc(Number.isFinite(digits) ? digits : ACCURACY_DEFAULT)));
  const [mant, exp] = Math.abs(x).toExponential().split('e') as [string, string];
  const shifted = Number(`${mant}e${Number(exp) + d}`);
  if (shifted >= 2 ** 52) return x; // no fractional digits left to round
  const back = Number(`${Math.round(shifted)}e-${d}`);
  return x < 0 && back !== 0 ? -back : back;
}

/** Compensated (Neumaier) sum: nearly independent of the order the database adds rows in. */
export function preciseSum(values: readonly number[]): number {
  let sum = 0;
  let comp = 0;
  for (const v of values) {
    const t = sum + v;
    comp += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
    sum = t;
  }
  return sum + comp;
}
