import { E, type ErrorDef } from '../shared/errors.ts';

/** An error a caller may see: a registry entry plus an optional detail for the message. */
export class AppError extends Error {
  readonly def: ErrorDef;
  readonly detail: string | undefined;
  /** Optional structured detail sent beside the message (e.g. an import's row errors). */
  readonly data: unknown;
  constructor(def: ErrorDef, detail?: string, data?: unknown) {
    super(detail ? `${def.msg}: ${detail}` : def.msg);
    this.def = def;
    this.detail = detail;
    this.data = data;
  }
}

/** Throw a coded error. */
export function fail(def: ErrorDef, detail?: string): never {
  throw new AppError(def, detail);
}

export { E };
