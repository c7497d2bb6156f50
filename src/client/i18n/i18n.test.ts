import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from './en.ts';
import { initialLang } from './index.ts';
import { zh } from './zh.ts';

function storageWith(lang: string | null): Pick<Storage, 'getItem'> {
  return { getItem: (k: string) => (k === 'lang' ? lang : null) };
}

function keys(o: object, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    typeof v === 'object' && v ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe('language choice', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    [null, 'zh-CN', 'zh'],
    [null, 'en-GB', 'en'],
    [null, 'fr-FR', 'en'],
    ['zh', 'en-US', 'zh'],
    ['en', 'zh-TW', 'en'],
    ['jp', 'zh-CN', 'zh'],
  ])('stored %s, browser %s → %s', (stored, browser, expected) => {
    vi.stubGlobal('localStorage', storageWith(stored));
    vi.stubGlobal('navigator', { language: browser });
    expect(initialLang()).toBe(expected);
  });

  it('zh and en have the same strings, none empty', () => {
    expect(keys(zh).sort()).toEqual(keys(en).sort());
    for (const k of keys(zh))
      expect(k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], zh)).not.toBe('');
  });
});
