/** Payloads of the spreadsheet import (`POST /api/app/d/{project}/{entity}/import`), shared by server and client. */

/** One refused row: its sheet row number, the offending value, and why. `text` is "row {index}-{value}". */
export interface RowError {
  row: number;
  field: string;
  value: string;
  reason: string;
  text: string;
}

/** What an import answers (also the `data` of its error answer when rows were refused). */
export interface ImportResult {
  inserted: number;
  failed: number;
  /** The first 100 row errors. */
  errors: RowError[];
  /** Header cells that name no field (their columns are skipped). */
  ignored: string[];
}
