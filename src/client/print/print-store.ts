/** Prints asked for by the runtime's print action; PrintHost (in the modal stack) shows them. */
import { create } from 'zustand';
import type { PrintOption } from '../../shared/print.ts';

export interface PrintRequest {
  project: string;
  option: PrintOption;
  /** A designed print page to print through (the template modal). */
  template?: string;
}

export const usePrints = create<{ request: PrintRequest | null; open(r: PrintRequest): void; close(): void }>(
  (set) => ({
    request: null,
    open: (request) => set({ request }),
    close: () => set({ request: null }),
  }),
);
