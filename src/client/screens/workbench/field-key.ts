/** Keys (codes) for tables and fields derived from their names: pinyin for Chinese, else the ASCII letters. */
type Pinyin = typeof import('pinyin-pro').pinyin;

/** pinyin-pro carries its dictionary (~150 KB gzip): loaded only when a key editor opens. */
let pinyin: Pinyin | null = null;
let loading: Promise<void> | null = null;
export function loadPinyin(): Promise<void> {
  loading ??= import('pinyin-pro').then((m) => {
    pinyin = m.pinyin;
  });
  return loading;
}

/** The server's rule: a letter, then letters, digits or underscores; at most 32. */
export const KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;
const HAN = /\p{Script=Han}/u;

/** A key from a name (Chinese needs loadPinyin() first): "客户名称" → "kehumingcheng", "Order date" → "order_date"; '' when nothing fits. */
export function keyFromName(name: string): string {
  const text =
    HAN.test(name) && pinyin
      ? pinyin(name, { toneType: 'none', type: 'array', nonZh: 'consecutive' }).join('_')
      : name;
  let key = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  // Chinese syllables read better joined: drop the separators pinyin put between them.
  if (HAN.test(name)) key = key.replace(/_/g, '');
  key = key.replace(/^[^a-z]+/, '');
  return key.slice(0, 32).replace(/_+$/, '');
}
