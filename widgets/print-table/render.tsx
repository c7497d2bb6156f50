import { bool, list, num, obj, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { usePrintData } from '../kit/print-data.ts';
import { cellText } from '../kit/table-columns.ts';
import { useWidgetData } from '../kit/widget-context.ts';

/** Plain HTML table for printing (no antd, so print CSS stays simple). */
export function PrintTableWidget({ id, props }: WidgetRenderProps) {
  const own = useWidgetData(id);
  const printed = usePrintData();
  // Opened with a print's rows (a new-window key): those rows, and its fields unless the widget names its own.
  const data = Array.isArray(printed?.data) ? { ...own, rows: printed.data } : own;
  const declared = list(props.fields).map(obj);
  const fields =
    !declared.length && Array.isArray(printed?.data) && printed.field?.length
      ? printed.field.map((f) => ({ key: f.key, title: f.title, width: undefined }))
      : declared.length
        ? declared.map((f) => ({
            key: str(f.field),
            title: str(f.title, str(f.field)),
            width: num(f.width, 0) || undefined,
          }))
        : (data.meta.fields ?? [])
            .filter((f) => !f.hide)
            .map((f) => ({ key: f.key, title: f.name, width: undefined }));
  const border = bool(props.border, true) ? '1px solid #000' : 'none';
  const cell = { border, padding: '4px 6px' };
  const index = bool(props.showIndex);
  return (
    <table style={{ width: '100%', borderCollapse: 'collapse' }} className="lc-print-table">
      {str(props.title) && <caption style={{ fontWeight: 600, padding: 6 }}>{str(props.title)}</caption>}
      <thead>
        <tr>
          {index && <th style={cell}>#</th>}
          {fields.map((f) => (
            <th key={f.key} style={{ ...cell, width: f.width }}>
              {f.title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {data.rows.map((r, i) => (
          <tr key={String(r._id ?? i)}>
            {index && <td style={cell}>{i + 1}</td>}
            {fields.map((f) => (
              <td key={f.key} style={cell}>
                {cellText(r[f.key])}
              </td>
            ))}
          </tr>
        ))}
        {bool(props.summary) && (
          <tr>
            {index && <td style={cell}>合计</td>}
            {fields.map((f) => {
              const values = data.rows.map((r) => r[f.key]).filter((v): v is number => typeof v === 'number');
              return (
                <td key={f.key} style={cell}>
                  {values.length ? values.reduce((a, b) => a + b, 0) : ''}
                </td>
              );
            })}
          </tr>
        )}
      </tbody>
    </table>
  );
}
