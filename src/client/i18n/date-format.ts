/**
 * Date formatters for the interface language, made once per language and options: building an
 * `Intl.DateTimeFormat` costs far more than formatting with one, and lists call this on every render.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

export function dateFormat(lang: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = lang === 'zh' ? 'zh-CN' : 'en-GB';
  const key = `${locale} ${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    formats.set(key, f);
  }
  return f;
}
