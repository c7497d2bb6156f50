// Evaluates spreadsheet formulas for sheet/parse, in a worker thread with a small heap: a formula
// that builds a huge string or array fails here, never in the server's own heap. Plain JS so the
// worker needs no TypeScript loader.
import { parentPort } from 'node:worker_threads';
import FormulaParser from 'fast-formula-parser';

/** Largest range a formula may read, in cells. */
const MAX_RANGE_CELLS = 100_000;

function cellOf(value, row, col) {
  if (Array.isArray(value)) {
    const r = value[row - 1];
    const v = Array.isArray(r) ? r[col - 1] : undefined;
    return v === undefined ? null : v;
  }
  return null;
}

function columnName(col) {
  let s = '';
  for (let c = col; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

/** Named values (`rate`) live in cells past the sheet's last row, one per name. */
const NAMED_ROW = 1_000_000;

parentPort.on('message', ({ id, formula, value, named }) => {
  // Set when a range is refused: the parser wraps what callbacks throw, so the flag says why it failed.
  let tooHeavy = false;
  try {
    const names = named ? Object.keys(named).filter((k) => !/^[A-Z]{1,3}[0-9]{1,7}$/.test(k)) : [];
    const lookup = (row, col) => {
      if (row >= NAMED_ROW) {
        const v = named[names[row - NAMED_ROW]];
        return v === undefined ? null : v;
      }
      if (named) {
        const v = named[`${columnName(col)}${row}`];
        return v === undefined ? null : v;
      }
      return cellOf(value, row, col);
    };
    const parser = new FormulaParser({
      onCell: ({ row, col }) => lookup(row, col),
      onRange: ({ from, to }) => {
        const rows = to.row - from.row + 1;
        const cols = to.col - from.col + 1;
        if (rows * cols > MAX_RANGE_CELLS) {
          tooHeavy = true;
          throw new RangeError('a range over 100,000 cells');
        }
        const out = [];
        for (let r = from.row; r <= to.row; r++) {
          const line = [];
          for (let c = from.col; c <= to.col; c++) line.push(lookup(r, c));
          out.push(line);
        }
        return out;
      },
      onVariable: (name) => {
        const i = names.indexOf(name);
        return i < 0 ? null : { sheet: 'Sheet1', row: NAMED_ROW + i, col: 1 };
      },
    });
    const text = formula.startsWith('=') ? formula.slice(1) : formula;
    let result = parser.parse(text, { sheet: 'Sheet1', row: 1, col: 1 }, true);
    // A spreadsheet error (#DIV/0!, #N/A …) is a result, as in a cell.
    if (result && typeof result === 'object' && typeof result._error === 'string') result = result._error;
    if (Array.isArray(result)) result = result.map((r) => (Array.isArray(r) ? r : [r]));
    parentPort.postMessage({ id, ok: true, result: result === undefined ? null : result });
  } catch (e) {
    // Out of room while computing (a string or array past what the heap allows) is "too heavy";
    // everything else the parser throws means the formula itself is wrong.
    const heavy =
      tooHeavy || (e instanceof RangeError && /string length|allocation|call stack/i.test(e.message));
    const detail = String(e?.details?.message ?? e?.message ?? e)
      .split('\n')
      .slice(0, 3)
      .join(' ')
      .slice(0, 200);
    parentPort.postMessage({ id, ok: false, kind: heavy ? 'heavy' : 'parse', detail });
  }
});

parentPort.postMessage({ ready: true });
