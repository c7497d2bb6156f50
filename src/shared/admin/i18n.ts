/**
 * The project's languages and translation maps (builder spec "i18n: list of languages (code to name);
 * translation map per code of id to text"), kept in the shared store under model `i18n`, type
 * `project`: key `languages` holds `{code: name}`, key `text.{code}` holds `{id: text}` where the id is
 * a page id (its title), a menu entry id (its name), `{page}.{widget}` (a widget's label or title),
 * `{field}.{option}` (an option's label in a field's own list) or `set:{set}.{option}` (an option's
 * label in an option set, shared by every field naming the set). The runtime shows these in the
 * user's language; a spreadsheet import takes them back to the stored option.
 */
export const I18N_MODEL = 'i18n';
export const I18N_LANGUAGES_KEY = 'languages';
export const I18N_TEXT_PREFIX = 'text.';
export const LANG_CODE = /^[a-z]{2,3}(-[A-Za-z]{2,4})?$/;
export const I18N_LANGUAGES_MAX = 20;
export const I18N_ENTRIES_MAX = 5000;
export const I18N_TEXT_MAX = 2000;
/** Ids: 24-hex ids, optionally followed by `.` and a widget id or an option text. */
const ENTRY_ID_MAX = 240;

/** The shared-store key of one language's translation map. */
export const textKey = (code: string) => `${I18N_TEXT_PREFIX}${code}`;

/** Why an i18n item's value is not acceptable for its key, or null. */
export function i18nProblem(key: string, value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'expected an object';
  const entries = Object.entries(value as Record<string, unknown>);
  if (key === I18N_LANGUAGES_KEY) {
    if (entries.length > I18N_LANGUAGES_MAX) return `at most ${I18N_LANGUAGES_MAX} languages`;
    for (const [code, name] of entries) {
      if (!LANG_CODE.test(code)) return `'${code.slice(0, 20)}' is not a language code`;
      if (typeof name !== 'string' || name.trim() === '' || name.length > 40)
        return `${code}: name of 1 to 40 characters`;
    }
    return null;
  }
  if (!key.startsWith(I18N_TEXT_PREFIX) || !LANG_CODE.test(key.slice(I18N_TEXT_PREFIX.length)))
    return 'key: languages or text.{code}';
  if (entries.length > I18N_ENTRIES_MAX) return `at most ${I18N_ENTRIES_MAX} texts`;
  for (const [id, text] of entries) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are refused.
    if (id.length === 0 || id.length > ENTRY_ID_MAX || /[\u0000-\u001f]/.test(id))
      return 'an id is not valid';
    if (typeof text !== 'string' || text.length > I18N_TEXT_MAX)
      return `${id.slice(0, 40)}: text of at most ${I18N_TEXT_MAX} characters`;
  }
  return null;
}

/** A translation map read defensively (only text values kept). */
export function readTexts(v: unknown): Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const out: Record<string, string> = {};
  for (const [k, t] of Object.entries(v as Record<string, unknown>))
    if (typeof t === 'string' && t !== '') out[k] = t;
  return out;
}

/** The id of a widget's label or title in a translation map. */
export const widgetTextId = (pageId: string, widgetId: string) => `${pageId}.${widgetId}`;

/** The id of an option's label in a translation map: the set's when the field names one. */
export const optionTextId = (fieldId: string, option: string, set?: string) =>
  set ? `set:${set}.${option}` : `${fieldId}.${option}`;
