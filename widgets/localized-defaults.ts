/**
 * The props of a widget the builder adds, in the interface language. A prop whose default is text
 * people read (a button's caption, a placeholder, sample options) may carry its English form next
 * to `default` as `x-default-en`. The schema's `default` (Chinese, as the spec's kinds have it)
 * stays what loading fills into a stored widget that lacks the prop, so a stored page never changes
 * with the language of whoever opens it; only new widgets take the builder's language.
 */
import type { Props, WidgetSpec } from './define.ts';

/** Languages a default can be written in (Cantonese and the others read the nearest of these). */
export type DefaultLang = 'zh' | 'en';

/** The schema annotation holding a prop's English default. */
export const DEFAULT_EN = 'x-default-en';

/** A new widget's props: the kind's defaults, with the English forms when the UI speaks English. */
export function newWidgetProps(spec: Pick<WidgetSpec, 'schema' | 'defaults'>, lang: DefaultLang): Props {
  const out = structuredClone(spec.defaults);
  if (lang === 'zh') return out;
  for (const [key, s] of Object.entries(spec.schema.properties))
    if (DEFAULT_EN in s) out[key] = structuredClone(s[DEFAULT_EN]);
  return out;
}
