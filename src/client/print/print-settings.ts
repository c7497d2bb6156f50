/** What printing keeps locally: the last print's choices and the desktop print client's settings. */
import { PRINT_CLIENT_PORT, type PrintOption, REMEMBERED } from '../../shared/print.ts';

const LAST = 'lc_print_last';
const CLIENT = 'lc_print_client';

function read(key: string): Record<string, unknown> {
  try {
    const v = JSON.parse(globalThis.localStorage?.getItem(key) ?? '{}') as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage full or off: nothing remembered */
  }
}

/** The last print's choices (columns, rows, copies, landscape). */
export function lastPrintOption(): Partial<PrintOption> {
  const v = read(LAST);
  const out: Partial<PrintOption> = {};
  for (const k of REMEMBERED) if (v[k] !== undefined) Object.assign(out, { [k]: v[k] });
  return out;
}

export function rememberPrintOption(o: PrintOption): void {
  const out: Record<string, unknown> = {};
  for (const k of REMEMBERED) if (o[k] !== undefined) out[k] = o[k];
  write(LAST, out);
}

export interface PrintClientSettings {
  enabled: boolean;
  port: number;
}

/** Spec: the print plugin port 21961, disabled by default. */
export function printClientSettings(): PrintClientSettings {
  const v = read(CLIENT);
  const port =
    typeof v.port === 'number' && v.port > 0 && v.port < 65536 ? Math.floor(v.port) : PRINT_CLIENT_PORT;
  return { enabled: v.enabled === true, port };
}

export function savePrintClientSettings(s: PrintClientSettings): void {
  write(CLIENT, s);
}
