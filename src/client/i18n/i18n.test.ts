import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from './en.ts';
import { enBuilder } from './en-builder.ts';
import { jp, vie, yue } from './extra.ts';
import { initialLang } from './index.ts';
import { zh } from './zh.ts';
import { zhBuilder } from './zh-builder.ts';

function storageWith(lang: string | null, early = false): Pick<Storage, 'getItem'> {
  return { getItem: (k: string) => (k === 'lang' ? lang : k === 'lc_early' && early ? '1' : null) };
}

function at(o: object, key: string): unknown {
  return key.split('.').reduce<unknown>((v, p) => (v as Record<string, unknown>)[p], o);
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

  it.each([
    ['shell', zh, en],
    ['builder', zhBuilder, enBuilder],
  ])('zh and en have the same %s strings, none empty', (_part, zhPart, enPart) => {
    expect(keys(zhPart).sort()).toEqual(keys(enPart).sort());
    for (const k of keys(zhPart)) expect(at(zhPart, k)).not.toBe('');
  });

  it('the builder strings add sections of their own, never replace a shell section', () => {
    for (const section of Object.keys(enBuilder)) expect(en).not.toHaveProperty(section);
  });

  it.each([
    ['jp', 'en-US', 'jp'],
    [null, 'ja-JP', 'jp'],
    [null, 'vi-VN', 'vie'],
    ['yue', 'en-US', 'yue'],
  ])('early access on: stored %s, browser %s → %s', (stored, browser, expected) => {
    vi.stubGlobal('localStorage', storageWith(stored, true));
    vi.stubGlobal('navigator', { language: browser });
    expect(initialLang()).toBe(expected);
  });

  it('early access off: jp, vie and yue are not offered', () => {
    vi.stubGlobal('localStorage', storageWith('yue'));
    vi.stubGlobal('navigator', { language: 'ja-JP' });
    expect(initialLang()).toBe('en');
  });

  it.each([
    ['jp', jp],
    ['vie', vie],
    ['yue', yue],
  ])('%s has every shell string, translated (not a copy of English or Chinese)', (_name, msgs) => {
    const shellKeys = keys(msgs);
    const expected = keys(en).filter((k) => shellKeys[0] !== undefined && k.split('.')[0]! in msgs);
    expect(shellKeys.sort()).toEqual(expected.sort());
    let same = 0;
    for (const k of shellKeys) {
      const v = at(msgs, k) as string;
      expect(v, k).not.toBe('');
      const words = (at(en, k) as string).replace(/\{\{\w+\}\}/g, '');
      if (k.startsWith('lang.') || !/[a-z]/i.test(words)) continue;
      if (v === at(en, k) || v === at(zh, k)) same++;
    }
    // A few words are the same across languages ("Menu" in Vietnamese, 草稿 in Cantonese): at most 5%.
    expect(same).toBeLessThanOrEqual(Math.ceil(shellKeys.length * 0.05));
  });
});
