/**
 * The print a print page was opened with (a new-window key): print widgets show its rows or record
 * instead of their own data source's, so what prints is what the caller asked to print.
 */
import { createContext, useContext } from 'react';
import type { PrintOption } from '../../src/shared/print.ts';

export const PrintDataContext = createContext<PrintOption | null>(null);

export function usePrintData(): PrintOption | null {
  return useContext(PrintDataContext);
}
