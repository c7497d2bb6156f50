/**
 * Schema → editor mapping of the generated property panel: which control edits a prop, its label and
 * its options, decided from the kind's JSON Schema and our annotations (x-zh, x-widget, x-enum-zh,
 * x-field-of). Pure: no React, so every kind can be checked in a unit test.
 */

export type Json = Record<string, unknown>;
export type Lang = 'zh' | 'en';

export type EditorKind =
  | 'text'
  | 'textarea'
  | 'html'
  | 'url'
  | 'image'
  | 'color'
  | 'number'
  | 'switch'
  | 'select'
  | 'entity'
  | 'dataset'
  | 'field'
  | 'page'
  | 'programs'
  | 'tags'
  | 'numbers'
  | 'tuple'
  | 'images'
  | 'list'
  | 'textOrTags'
  | 'unknown';

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** x-widget values the panel understands. */
export const X_WIDGETS = [
  'color',
  'textarea',
  'html',
  'url',
  'image',
  'entity',
  'dataset',
  'field',
  'page',
  'programs',
] as const;

function typesOf(s: Json): string[] {
  return Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
}

/** The editor for a (sub)schema; 'unknown' when nothing fits (a test keeps every kind free of those). */
export function editorOf(s: Json): EditorKind {
  const xw = s['x-widget'];
  if (typeof xw === 'string') {
    if ((X_WIDGETS as readonly string[]).includes(xw)) return xw as EditorKind;
    return 'unknown';
  }
  if (s.format === 'color') return 'color';
  if (Array.isArray(s.enum)) return 'select';
  const types = typesOf(s);
  if (types.length === 2 && types.includes('string') && types.includes('array')) return 'textOrTags';
  if (types.length !== 1) return 'unknown';
  switch (types[0]) {
    case 'string':
      if (s.format === 'safe-url') return 'url';
      if (s.format === 'safe-html') return 'html';
      return typeof s.maxLength === 'number' && s.maxLength > 2000 ? 'textarea' : 'text';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'switch';
    case 'array': {
      const items = isObj(s.items) ? s.items : undefined;
      if (!items) return 'unknown';
      if (items.type === 'object') return isObj(items.properties) ? 'list' : 'unknown';
      if (items.type === 'number' || items.type === 'integer')
        return typeof s.minItems === 'number' && s.minItems === s.maxItems ? 'tuple' : 'numbers';
      if (items.type === 'string') {
        if (items.format === 'safe-url' || items['x-widget'] === 'image') return 'images';
        return 'tags';
      }
      return 'unknown';
    }
    default:
      return 'unknown';
  }
}

/** Labels of the sub-fields of list rows whose schemas carry no title. */
const KEY_LABELS: Record<string, { zh: string; en: string }> = {
  label: { zh: '显示文字', en: 'Label' },
  value: { zh: '值', en: 'Value' },
  name: { zh: '名称', en: 'Name' },
  field: { zh: '字段', en: 'Field' },
  _field: { zh: '字段', en: 'Field' },
  _hide: { zh: '隐藏', en: 'Hidden' },
  hide: { zh: '隐藏', en: 'Hidden' },
  title: { zh: '标题', en: 'Title' },
  width: { zh: '宽度', en: 'Width' },
  fixed: { zh: '固定', en: 'Fixed' },
  sortable: { zh: '可排序', en: 'Sortable' },
  required: { zh: '必填', en: 'Required' },
  icon: { zh: '图标', en: 'Icon' },
  color: { zh: '颜色', en: 'Colour' },
  flow: { zh: '程序', en: 'Program' },
  type: { zh: '类型', en: 'Type' },
  span: { zh: '跨列', en: 'Span' },
  align: { zh: '对齐', en: 'Align' },
  placeholder: { zh: '占位提示', en: 'Placeholder' },
  summary: { zh: '合计', en: 'Summary' },
};

/** The label of a prop in the current language: x-zh / title, then the known sub-key names, then the key. */
export function labelOf(s: Json, key: string, lang: Lang): string {
  if (lang === 'zh' && typeof s['x-zh'] === 'string') return s['x-zh'];
  if (lang === 'en' && typeof s.title === 'string') return s.title;
  const known = KEY_LABELS[key];
  if (known) return known[lang];
  if (typeof s.title === 'string') return s.title;
  return key;
}

export interface Choice {
  value: string | number;
  label: string;
}

/** Options of an enum with zh labels from x-enum-zh (and en from x-enum-en) when the schema gives them. */
export function enumOptions(s: Json, lang: Lang): Choice[] {
  const values = Array.isArray(s.enum) ? (s.enum as (string | number)[]) : [];
  const names = s[lang === 'zh' ? 'x-enum-zh' : 'x-enum-en'];
  return values.map((v, i) => ({
    value: v,
    label: Array.isArray(names) && typeof names[i] === 'string' ? `${names[i]}` : String(v),
  }));
}

/** The props of a kind in schema order, each with its editor. */
export function propFields(schema: {
  properties: Record<string, Json>;
}): { key: string; schema: Json; editor: EditorKind }[] {
  return Object.entries(schema.properties).map(([key, s]) => ({ key, schema: s, editor: editorOf(s) }));
}

/** Sub-fields of the rows of a list prop. */
export function rowFields(s: Json): { key: string; schema: Json; editor: EditorKind; required: boolean }[] {
  const items = isObj(s.items) ? s.items : {};
  const props = isObj(items.properties) ? (items.properties as Record<string, Json>) : {};
  const req = Array.isArray(items.required) ? (items.required as string[]) : [];
  return Object.entries(props).map(([key, sub]) => ({
    key,
    schema: sub,
    editor: editorOf(sub),
    required: req.includes(key),
  }));
}

/** A new row for a list: schema defaults, else an empty value of each required field's type. */
export function emptyRow(s: Json): unknown {
  const items = isObj(s.items) ? s.items : {};
  if (items.type !== 'object') {
    if ('default' in items) return items.default;
    if (Array.isArray(items.enum)) return items.enum[0];
    return items.type === 'number' || items.type === 'integer' ? (items.minimum ?? 0) : '';
  }
  const out: Json = {};
  for (const f of rowFields(s)) {
    if ('default' in f.schema) out[f.key] = structuredClone(f.schema.default);
    else if (!f.required) continue;
    else if (Array.isArray(f.schema.enum)) out[f.key] = f.schema.enum[0];
    else if (f.editor === 'number') out[f.key] = f.schema.minimum ?? 0;
    else if (f.editor === 'switch') out[f.key] = false;
    else out[f.key] = '';
  }
  return out;
}

/** Number bounds of a number schema (for InputNumber min/max). */
export function numberBounds(s: Json): { min?: number; max?: number; step?: number; precision?: number } {
  const min = typeof s.minimum === 'number' ? s.minimum : undefined;
  const max = typeof s.maximum === 'number' ? s.maximum : undefined;
  return s.type === 'integer' ? { min, max, step: 1, precision: 0 } : { min, max };
}
