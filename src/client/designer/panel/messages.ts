/** Validation messages (ajv's English) in the builder's language. */
import type { Lang } from './schema-fields.ts';

const TYPES: Record<string, string> = {
  string: '文本',
  number: '数字',
  integer: '整数',
  boolean: '开关值',
  array: '列表',
  object: '对象',
};

const ZH: [RegExp, (...m: string[]) => string][] = [
  [/^must be <= (.+)$/, (n) => `不能大于 ${n}`],
  [/^must be >= (.+)$/, (n) => `不能小于 ${n}`],
  [/^must be < (.+)$/, (n) => `必须小于 ${n}`],
  [/^must be > (.+)$/, (n) => `必须大于 ${n}`],
  [/^must NOT have more than (\d+) characters$/, (n) => `不能超过 ${n} 个字符`],
  [/^must NOT have fewer than (\d+) characters$/, (n) => `至少 ${n} 个字符`],
  [/^must NOT have more than (\d+) items$/, (n) => `最多 ${n} 项`],
  [/^must NOT have fewer than (\d+) items$/, (n) => `至少 ${n} 项`],
  [/^must have required property '(.+)'$/, (k) => `缺少必填项 ${k}`],
  [/^must match format "(.+)"$/, (f) => `格式不正确（${f}）`],
  [/^must match pattern/, () => '格式不正确'],
  [/^must be equal to one of the allowed values$/, () => '不是可选的值'],
  [/^must not contain script tags$/, () => '不能包含脚本标签'],
  [/^must NOT have additional properties/, () => '含有不允许的属性'],
  [/^must be (string|number|integer|boolean|array|object)$/, (t) => `应为${TYPES[t] ?? t}`],
  [/^expression is empty$/, () => '表达式为空'],
  [/^expression does not parse: (.*)$/, (m) => `表达式有误：${m}`],
];

export function localizeMessage(message: string, lang: Lang): string {
  if (lang !== 'zh') return message;
  for (const [re, fn] of ZH) {
    const m = re.exec(message);
    if (m) return fn(...m.slice(1));
  }
  return message;
}

/** The same for a map of errors by path. */
export function localizeErrors(errors: Record<string, string>, lang: Lang): Record<string, string> {
  if (lang !== 'zh') return errors;
  return Object.fromEntries(Object.entries(errors).map(([k, m]) => [k, localizeMessage(m, lang)]));
}
