/**
 * A print as A4 sheets: a table cut into sheets of `rows` rows, each sheet with the header row again
 * and "page i / n" at its foot; a record as label/value cells in 2, 3 or 4 columns. `copies` repeats
 * the whole set. The same markup is the modal's preview, the print window and the print client's PDF.
 */
import {
  PRINT_ROWS_PER_SHEET,
  type PrintField,
  type PrintOption,
  paginate,
  printText,
} from '../../shared/print.ts';
import { PRINT_CSS } from './print-css.ts';

/** The fields to show: the option's, else the data's own keys (internal `_…` keys left out). */
export function printFields(o: PrintOption): PrintField[] {
  if (o.field?.length) return o.field;
  const first = Array.isArray(o.data) ? o.data[0] : o.data;
  return Object.keys(first ?? {})
    .filter((k) => !k.startsWith('_'))
    .map((k) => ({ key: k, title: k }));
}

export function PrintDocument({
  option,
  pageLabel,
  preview = false,
}: {
  option: PrintOption;
  /** "page {i} / {n}" in the user's language. */
  pageLabel(i: number, n: number): string;
  preview?: boolean;
}) {
  const fields = printFields(option);
  const copies = Math.max(1, option.copies ?? 1);
  const head = (
    <>
      {option.title ? <h1 className="lcp-title">{option.title}</h1> : null}
      {option.info ? <p className="lcp-info">{option.info}</p> : null}
    </>
  );
  const sheets: React.ReactNode[] = [];
  for (let c = 0; c < copies; c++) {
    if (Array.isArray(option.data)) {
      const parts = paginate(option.data, option.rows ?? PRINT_ROWS_PER_SHEET);
      parts.forEach((rows, i) => {
        const key = `copy${c}-sheet${i}`;
        sheets.push(
          <section className="lcp-sheet" key={key} data-copy={c + 1} data-sheet={i + 1}>
            {i === 0 ? head : null}
            <table className="lcp-table">
              <thead>
                <tr>
                  {fields.map((f) => (
                    <th key={f.key}>{f.title}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((r, j) => (
                  <tr key={String(r._id ?? j)}>
                    {fields.map((f) => (
                      <td key={f.key}>{printText(r[f.key])}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="lcp-foot">{pageLabel(i + 1, parts.length)}</div>
          </section>,
        );
      });
    } else {
      const record = option.data ?? {};
      const columns = [2, 3, 4].includes(option.columns ?? 2) ? (option.columns ?? 2) : 2;
      sheets.push(
        <section className="lcp-sheet" key={`${c}-form`} data-copy={c + 1} data-sheet={1}>
          {head}
          <div
            className="lcp-form"
            data-columns={columns}
            style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}
          >
            {fields.map((f) => (
              <div className="lcp-cell" key={f.key}>
                <span className="lcp-label">{f.title}:</span>
                {printText(record[f.key])}
              </div>
            ))}
          </div>
          <div className="lcp-foot">{pageLabel(1, 1)}</div>
        </section>,
      );
    }
  }
  return (
    <div
      className={preview ? 'lcp-doc lcp-preview' : 'lcp-doc'}
      data-testid={preview ? 'print-preview' : 'print-doc'}
    >
      <style>{PRINT_CSS}</style>
      {sheets}
    </div>
  );
}

/** A whole HTML document of a print (for the desktop print client), from the drawn print root. */
export function printHtml(title: string, body: string): string {
  const esc = title.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc}</title></head><body>${body}</body></html>`;
}
