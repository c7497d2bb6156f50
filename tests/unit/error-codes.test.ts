/**
 * The coded error registry: areas add codes side by side (often on parallel branches), and a code
 * used twice would make the client show one area's message for another's error.
 */
import { describe, expect, it } from 'vitest';
import { E, errorByCode } from '../../src/shared/errors.ts';

describe('error codes', () => {
  it('each code is used once, and each finds its own definition', () => {
    const byCode = new Map<number, string[]>();
    for (const [name, def] of Object.entries(E))
      byCode.set(def.code, [...(byCode.get(def.code) ?? []), name]);
    const twice = [...byCode].filter(([, names]) => names.length > 1);
    expect(twice).toEqual([]);
    for (const def of Object.values(E)) expect(errorByCode(def.code)).toBe(def);
  });

  it('every error has an HTTP status, and an English and a Chinese message', () => {
    for (const [name, def] of Object.entries(E)) {
      expect(def.status, name).toBeGreaterThanOrEqual(200);
      expect(def.status, name).toBeLessThan(600);
      expect(def.msg.length, name).toBeGreaterThan(0);
      expect(def.zh.length, name).toBeGreaterThan(0);
    }
  });
});
