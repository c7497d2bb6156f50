/**
 * i18next set-up: zh and en; the default is the browser language's first two letters when we have
 * it, else English; the choice is stored locally (runtime spec §1).
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Lang } from '../../shared/validation.ts';
import { KEYS } from '../api/storage.ts';
import { en } from './en.ts';
import { zh } from './zh.ts';

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
/** The shape every language's strings must have. */
export type Messages = Widen<typeof en>;

export const LANGS: readonly Lang[] = ['zh', 'en'];

function isLang(v: unknown): v is Lang {
  return typeof v === 'string' && (LANGS as readonly string[]).includes(v);
}

/** The stored language, else the browser's, else English. */
export function initialLang(): Lang {
  const stored = globalThis.localStorage?.getItem(KEYS.lang);
  if (isLang(stored)) return stored;
  const browser = globalThis.navigator?.language?.slice(0, 2).toLowerCase();
  return isLang(browser) ? browser : 'en';
}

/** The language in use now. */
export function currentLang(): Lang {
  return isLang(i18next.language) ? i18next.language : 'en';
}

/** Switch and remember the language. */
export function setLang(lang: Lang): void {
  localStorage.setItem(KEYS.lang, lang);
  document.documentElement.lang = lang;
  void i18next.changeLanguage(lang);
}

export function initI18n(): typeof i18next {
  const lng = initialLang();
  document.documentElement.lang = lng;
  void i18next.use(initReactI18next).init({
    resources: { zh: { translation: zh }, en: { translation: en } },
    lng,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
  });
  return i18next;
}
