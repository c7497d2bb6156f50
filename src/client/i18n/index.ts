/**
 * i18next set-up: zh and en; the default is the browser language's first two letters when we have
 * it, else English; the choice is stored locally (runtime spec §1). Early-access mode (a local flag,
 * switched in the user center; the spec does not say how it turns on) adds jp, vie and yue.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Lang } from '../../shared/validation.ts';
import { KEYS } from '../api/storage.ts';
import { en } from './en.ts';
import { zh } from './zh.ts';

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
/** The shape every language's strings must have (those in the entry). */
export type Messages = Widen<typeof en>;
/** The shape of the builder screens' strings (loaded with those screens, see `loadBuilderTexts`). */
export type BuilderMessages = Widen<typeof import('./en-builder.ts').enBuilder>;

/** Interface languages: the main two, and the early-access three. */
export type UiLang = Lang | 'jp' | 'vie' | 'yue';
export const LANGS: readonly Lang[] = ['zh', 'en'];
export const EARLY_LANGS: readonly UiLang[] = ['jp', 'vie', 'yue'];
/** Local key of the early-access flag. */
export const EARLY_KEY = 'lc_early';

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function earlyAccess(): boolean {
  return read(EARLY_KEY) === '1';
}

/** The languages offered now. */
export function uiLangs(): readonly UiLang[] {
  return earlyAccess() ? [...LANGS, ...EARLY_LANGS] : LANGS;
}

function isUiLang(v: unknown): v is UiLang {
  return typeof v === 'string' && (uiLangs() as readonly string[]).includes(v);
}

/** The stored language, else the browser's, else English. */
export function initialLang(): UiLang {
  const stored = read(KEYS.lang);
  if (isUiLang(stored)) return stored;
  const browser = globalThis.navigator?.language?.slice(0, 2).toLowerCase();
  // Browsers say ja / vi; the product's codes are jp / vie.
  const mapped = browser === 'ja' ? 'jp' : browser === 'vi' ? 'vie' : browser;
  return isUiLang(mapped) ? mapped : 'en';
}

/** The interface language in use now. */
export function currentUiLang(): UiLang {
  return isUiLang(i18next.language) ? i18next.language : 'en';
}

/** The language for messages that exist in zh and en only (validation): Cantonese reads Chinese. */
export function currentLang(): Lang {
  const l = currentUiLang();
  return l === 'zh' || l === 'yue' ? 'zh' : 'en';
}

const isEarly = (lang: string) => (EARLY_LANGS as readonly string[]).includes(lang);
let earlyTexts: Promise<void> | null = null;

/** The early-access languages' strings (jp, vie, yue): loaded when one is in use, not with the entry. */
function loadEarlyTexts(): Promise<void> {
  earlyTexts ??= import('./extra.ts').then(
    (m) => {
      for (const [lang, msgs] of [
        ['jp', m.jp],
        ['vie', m.vie],
        ['yue', m.yue],
      ] as const)
        i18next.addResourceBundle(lang, 'translation', msgs, true, true);
    },
    (err: unknown) => {
      earlyTexts = null;
      throw err;
    },
  );
  return earlyTexts;
}

/**
 * Resolves when the interface language's strings are all in: at once for zh and en (in the entry),
 * after its chunk for an early-access language (on failure its strings fall back, as missing ones do).
 */
export function i18nReady(): Promise<void> {
  return isEarly(i18next.language) ? loadEarlyTexts().catch(() => undefined) : Promise.resolve();
}

/** Switch and remember the language. */
export function setLang(lang: UiLang): void {
  localStorage.setItem(KEYS.lang, lang);
  document.documentElement.lang = lang === 'jp' ? 'ja' : lang === 'vie' ? 'vi' : lang;
  if (isEarly(lang))
    void loadEarlyTexts()
      .catch(() => undefined)
      .then(() => i18next.changeLanguage(lang));
  else void i18next.changeLanguage(lang);
}

const earlyListeners = new Set<() => void>();

/** Be told when early-access mode changes (for `useSyncExternalStore`). */
export function onEarlyAccess(listener: () => void): () => void {
  earlyListeners.add(listener);
  return () => earlyListeners.delete(listener);
}

/** Turn early-access mode on or off; off falls back to English from an early language. */
export function setEarlyAccess(on: boolean): void {
  if (on) localStorage.setItem(EARLY_KEY, '1');
  else localStorage.removeItem(EARLY_KEY);
  if (!on && isEarly(i18next.language)) setLang('en');
  for (const l of earlyListeners) l();
}

export function initI18n(): typeof i18next {
  const lng = initialLang();
  document.documentElement.lang = lng;
  void i18next.use(initReactI18next).init({
    // jp, vie and yue are added when used (`i18nReady`, `setLang`).
    resources: {
      zh: { translation: zh },
      en: { translation: en },
    },
    lng,
    // Early languages carry the shell's strings; the rest falls back (Cantonese to Chinese first).
    fallbackLng: { yue: ['zh', 'en'], default: ['en'] },
    interpolation: { escapeValue: false },
  });
  return i18next;
}

let builderTexts: Promise<void> | null = null;

/**
 * Adds the builder screens' strings (designer, workbench, programs, administration: about half of
 * each catalog) to every language. They stay out of the entry bundle, which end users load; the
 * router loads them beside those screens' chunks, so a builder screen never renders a raw key.
 */
export function loadBuilderTexts(): Promise<void> {
  builderTexts ??= Promise.all([import('./en-builder.ts'), import('./zh-builder.ts')]).then(
    ([e, z]) => {
      i18next.addResourceBundle('en', 'translation', e.enBuilder, true, true);
      i18next.addResourceBundle('zh', 'translation', z.zhBuilder, true, true);
    },
    (err: unknown) => {
      // A failed chunk load (offline, a new deploy) is tried again by the next screen that asks.
      builderTexts = null;
      throw err;
    },
  );
  return builderTexts;
}
