import { bool, list, num, obj, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { usePrintData } from '../kit/print-data.ts';
import { cellText } from '../kit/table-columns.ts';
import { useWidgetData } from '../kit/widget-context.ts';

/** One record as label/value pairs in 2, 3 or 4 columns (default 2). */
export function PrintFormWidget({ id, props }: WidgetRenderProps) {
  const data = useWidgetData(id);
  const printed = usePrintData();
  // Opened with a print's record (a new-window key): that record, its columns and fields unless set here.
  const printedRecord = printed?.data && !Array.isArray(printed.data) ? printed.data : null;
  const record = printedRecord ?? data.rows[0] ?? {};
  const wanted = num(props.columns, printedRecord ? (printed?.columns ?? 2) : 2);
  const columns = [2, 3, 4].includes(wanted) ? wanted : 2;
  const declared = list(props.fields).map(obj);
  const fields =
    !declared.length && printedRecord && printed?.field?.length
      ? printed.field.map((f) => ({ key: f.key, title: f.title }))
      : declared.length
        ? declared.map((f) => ({ key: str(f.field), title: str(f.title, str(f.field)) }))
        : (data.meta.fields ?? []).filter((f) => !f.hide).map((f) => ({ key: f.key, title: f.name }));
  const border = bool(props.border, true) ? '1px solid #000' : 'none';
  return (
    <div>
      {str(props.title) && (
        <div style={{ fontWeight: 600, textAlign: 'center', padding: 6 }}>{str(props.title)}</div>
      )}
      <div style={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, 1fr)`, border }}>
        {fields.map((f) => (
          <div key={f.key} style={{ border, padding: '4px 6px' }}>
            <strong>{f.title}: </strong>
            {cellText(record[f.key])}
          </div>
        ))}
      </div>
    </div>
  );
}
