/**
 * What filter operators are called, in both UI languages: one home for the builder's rows-grid filter
 * (the shell's i18n tables) and the end user's filter (widgets/kit, which may import only src/shared).
 */
export const OPERATOR_LABELS = {
  zh: {
    contain: '包含',
    notcontain: '不包含',
    eq: '等于',
    ne: '不等于',
    start: '开头是',
    end: '结尾是',
    isnull: '为空',
    notnull: '不为空',
    gt: '大于',
    lt: '小于',
    gte: '大于等于',
    lte: '小于等于',
    between: '介于',
    notbetween: '不介于',
  },
  en: {
    contain: 'contains',
    notcontain: 'does not contain',
    eq: 'equals',
    ne: 'does not equal',
    start: 'starts with',
    end: 'ends with',
    isnull: 'is empty',
    notnull: 'is not empty',
    gt: 'greater than',
    lt: 'less than',
    gte: 'at least',
    lte: 'at most',
    between: 'between',
    notbetween: 'not between',
  },
} as const;
