/**
 * The project's translations of builder texts (shared/admin/i18n.ts) in the user's interface
 * language: page titles, menu names, widget and option labels shown translated where a translation
 * exists, the builder's own text otherwise. One read per project and language (through the share
 * batch), refreshed when /system/i18n saves.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { I18N_MODEL, readTexts, textKey } from '../../shared/admin/i18n.ts';
import { fetchShare } from '../api/share.ts';

type Texts = Record<string, string>;
const loaded = new Map<string, Texts>();
const pending = new Map<string, Promise<Texts>>();
const listeners = new Set<() => void>();

function load(project: string, lang: string): Promise<Texts> {
  const id = `${project}/${lang}`;
  const p =
    pending.get(id) ??
    fetchShare(project, { model: I18N_MODEL, type: 'project', key: textKey(lang) })
      .then((v) => readTexts(v))
      .catch(() => ({}) as Texts)
      .then((t) => {
        loaded.set(id, t);
        pending.delete(id);
        return t;
      });
  pending.set(id, p);
  return p;
}

/** Forget a project's translations (after a save), so every screen reads them again. */
export function forgetProjectTexts(project: string): void {
  for (const k of [...loaded.keys()]) if (k.startsWith(`${project}/`)) loaded.delete(k);
  for (const l of listeners) l();
}

/** The translations for the current interface language (empty until read, or when there are none). */
export function useProjectTexts(project: string | null | undefined): Texts {
  const { i18n } = useTranslation();
  const lang = i18n.language;
  const id = `${project}/${lang}`;
  const [texts, setTexts] = useState<Texts>(() => (project ? (loaded.get(id) ?? {}) : {}));
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const l = () => setVersion((v) => v + 1);
    listeners.add(l);
    return () => {
      listeners.delete(l);
    };
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version re-reads after forgetProjectTexts
  useEffect(() => {
    if (!project) {
      setTexts({});
      return;
    }
    let live = true;
    const hit = loaded.get(id);
    if (hit) setTexts(hit);
    else
      void load(project, lang).then((t) => {
        if (live) setTexts(t);
      });
    return () => {
      live = false;
    };
  }, [project, lang, id, version]);
  return texts;
}
