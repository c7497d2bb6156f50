/** The date picker's display formats (spec: nine formats, default yyyy-MM-dd). Tokens as in fmtDate. */
export const DATE_FORMATS = [
  'yyyy-MM-dd',
  'yyyy/MM/dd',
  'yyyy年MM月dd日',
  'yyyy-MM',
  'yyyy年MM月',
  'yyyy-MM-dd HH:mm',
  'yyyy-MM-dd HH:mm:ss',
  'yyyy/MM/dd HH:mm',
  'HH:mm:ss',
] as const;
export const DATE_FORMAT_DEFAULT = 'yyyy-MM-dd';
export const DATE_PICKER_TYPES = ['month', 'date', 'datetime', 'daterange', 'datetimerange'] as const;

/** Our yyyy-MM-dd tokens in dayjs spelling (YYYY-MM-DD), for antd pickers. */
export function toDayjsFormat(f: string): string {
  return f.replace(/yyyy/g, 'YYYY').replace(/dd/g, 'DD');
}
